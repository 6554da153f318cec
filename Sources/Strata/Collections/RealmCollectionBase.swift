import Foundation

/// What every Realm collection is: a random-access collection of `RealmCollectionValue`s,
/// indexed from 0, that belongs to a realm (or is unmanaged). RealmSwift's name; the base of
/// `RealmCollection`.
///
/// ## Concurrency
/// A protocol; the conforming collections are confined with their realm.
public protocol RealmCollectionBase: RandomAccessCollection, CustomStringConvertible, ThreadConfined
where Element: RealmCollectionValue, Index == Int {}
