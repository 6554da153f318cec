import Foundation
internal import StrataCore

/// A type whose objects an ``ObservedResults`` wrapper can hold: an `Object` subclass, or a
/// `Projection` subclass (its wrapper holds the projections of the projected class's objects,
/// and its queries and sort descriptors name properties of that class, as
/// `realm.objects(SomeProjection.self)` does). RealmSwift's name; Strata's two conformances are
/// the only ones.
public protocol _ObservedResultsValue: RealmCollectionValue {
    /// The class whose objects the results hold (for a projection, the projected class). Not API.
    static var _strataObservedClass: Object.Type { get }
}

extension Object: _ObservedResultsValue {
    /// This class. Not API.
    public static var _strataObservedClass: Object.Type { self }
}

extension Projection: _ObservedResultsValue {
    /// The projected class. Not API.
    public static var _strataObservedClass: Object.Type { Root.self }
}

extension Realm {
    /// Every object of `type` (or, for a projection, the projections of every object of the
    /// projected class) in `realm`, live; empty results without a realm.
    static func observedResults<T: _ObservedResultsValue>(_ type: T.Type, in realm: Realm?) -> Results<T> {
        let objectClass = T._strataObservedClass
        guard let realm else { return Results(realm: nil, query: StoreQuery(), objectType: objectClass, values: nil) }
        guard realm.checkThread() else {
            return Results(
                realm: realm, query: StoreQuery().filtered(by: .falsePredicate), objectType: objectClass, values: nil)
        }
        _ = realm.binding(for: objectClass)
        return Results(realm: realm, query: StoreQuery(), objectType: objectClass, values: nil)
    }
}
