import Foundation

/// A projection of an object: what `Projection` subclasses are, for generic code over them
/// (`realm.objects(PersonProjection.self)`).
///
/// ## Concurrency
/// Confined with the projected object's realm.
public protocol ProjectionObservable: AnyObject, ThreadConfined {
    /// The class of the projected objects.
    associatedtype Root: Object
    /// The projected object.
    var rootObject: Root { get }
    /// A projection of `object`.
    init(projecting object: Root)
}
