import Foundation

#if canImport(SwiftUI)
    import SwiftUI
#endif

/// A binding to a collection (`$dogs` of `@ObservedResults var dogs`, `$person.dogs`) whose
/// mutating methods write implicitly: each thaws the collection and changes it in a quick
/// write, joining the realm's current write transaction if there is one (see
/// ``Realm/quickWriteErrorHandler`` for failures).
///
/// ```swift
/// $dogs.append(Dog(value: ["name": "Bandido"]))     // adds the dog to the realm
/// $dogs.remove(atOffsets: IndexSet(integer: 0))       // deletes the first dog
/// $person.dogs.move(fromOffsets: [0], toOffset: 2)
/// ```
///
/// ## Concurrency
/// Use it on the thread of the realm the collection's writes go to (the thread that made the
/// wrapper, for frozen collections: they are thawed there).
public protocol BoundCollection {
    /// The bound collection.
    associatedtype Value

    /// The bound collection (frozen when it comes from a property wrapper).
    var wrappedValue: Value { get }
}

extension BoundCollection where Value: RealmCollection {
    /// Removes the element at `index` of the bound list.
    public func remove<V>(at index: Int) where Value == List<V> {
        guard let list = QuickWrite.live(wrappedValue) else { return }
        QuickWrite.perform(in: list.realm) { list.remove(at: index) }
    }

    /// Removes the elements at `offsets` of the bound list (SwiftUI's `onDelete`).
    public func remove<V>(atOffsets offsets: IndexSet) where Value == List<V> {
        guard let list = QuickWrite.live(wrappedValue) else { return }
        QuickWrite.perform(in: list.realm) { list.remove(atOffsets: offsets) }
    }

    /// Removes the first occurrence of `object` from the bound list (the object stays in the
    /// realm).
    public func remove<V: ObjectBase>(_ object: V) where Value == List<V> {
        guard let list = QuickWrite.live(wrappedValue), let live = object.strataThawed() as? V,
            let index = list.index(of: live)
        else { return }
        QuickWrite.perform(in: list.realm) { list.remove(at: index) }
    }

    /// Moves the elements at `offsets` of the bound list to before `destination` (SwiftUI's
    /// `onMove`).
    public func move<V>(fromOffsets offsets: IndexSet, toOffset destination: Int) where Value == List<V> {
        guard let list = QuickWrite.live(wrappedValue) else { return }
        QuickWrite.perform(in: list.realm) { list.move(fromOffsets: offsets, toOffset: destination) }
    }

    /// Appends `value` to the bound list (an unmanaged object is added to the list's realm).
    public func append<V>(_ value: V) where Value == List<V> {
        guard let list = QuickWrite.live(wrappedValue) else { return }
        QuickWrite.perform(in: list.realm) { list.append(value) }
    }

    /// Deletes `object` from the realm of the bound results (`$dogs.remove(dog)`).
    public func remove<V: ObjectBase>(_ object: V) where Value == Results<V> {
        guard let results = QuickWrite.live(wrappedValue), let live = object.strataThawed() as? V,
            results.index(of: live) != nil
        else { return }
        QuickWrite.perform(in: results.realm) { results.realm?.delete(live) }
    }

    /// Deletes the objects at `offsets` of the bound results from their realm (SwiftUI's
    /// `onDelete(perform: $dogs.remove)`).
    public func remove<V: ObjectBase>(atOffsets offsets: IndexSet) where Value == Results<V> {
        guard let results = QuickWrite.live(wrappedValue) else { return }
        QuickWrite.perform(in: results.realm) {
            let objects = offsets.filter { $0 >= 0 && $0 < results.count }.map { results[$0] }
            results.realm?.delete(objects)
        }
    }

    /// Adds `value` to the realm of the bound results (`$dogs.append(Dog(value: ["name": "Bandido"]))`).
    public func append<V: Object>(_ value: V) where Value == Results<V> {
        guard let results = QuickWrite.live(wrappedValue) else { return }
        QuickWrite.perform(in: results.realm) { results.realm?.add(value) }
    }
}

extension BoundCollection {
    /// Inserts `value` into the bound set (`$dog.tags.insert("good")`).
    public func insert<V>(_ value: V) where Value == MutableSet<V> {
        guard let set = QuickWrite.live(wrappedValue) else { return }
        QuickWrite.perform(in: set.realm) { set.insert(value) }
    }

    /// Removes `value` from the bound set.
    public func remove<V>(_ value: V) where Value == MutableSet<V> {
        guard let set = QuickWrite.live(wrappedValue) else { return }
        QuickWrite.perform(in: set.realm) { set.remove(value) }
    }
}

extension Binding: BoundCollection where Value: RealmCollectionBase {}
