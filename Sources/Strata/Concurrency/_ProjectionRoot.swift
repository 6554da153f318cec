import Foundation

/// The projected object of a projection, for `ThreadSafeReference`. Not API.
protocol _ProjectionRoot {
    var _strataRootObject: ObjectBase { get }
}
