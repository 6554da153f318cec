internal import StrataCore

extension Object {
    /// The list of objects stored in the property named `propertyName`, as `DynamicObject`s:
    /// for a `DynamicObject`, and for a managed model object (a live view of the same list).
    ///
    /// ```swift
    /// let person = realm.dynamicObjects("Person").first!
    /// for dog in person.dynamicList("dogs") { print(dog["name"] as! String) }
    /// try realm.write { person.dynamicList("dogs").append(realm.dynamicCreate("Dog", value: ["name": "Bo"])) }
    /// ```
    ///
    /// A property that is not a list of objects, an unknown name or an unmanaged object is
    /// reported through `Realm.violationHandler` (RealmSwift raises an exception) and gives an
    /// empty unmanaged list.
    public func dynamicList(_ propertyName: String) -> List<DynamicObject> {
        dynamicCollection(propertyName, kind: .list, fallback: List<DynamicObject>(), make: List.init(owner:))
    }

    /// The set of objects stored in the property named `propertyName`, as `DynamicObject`s (see
    /// `dynamicList(_:)`).
    public func dynamicMutableSet(_ propertyName: String) -> MutableSet<DynamicObject> {
        dynamicCollection(
            propertyName, kind: .set, fallback: MutableSet<DynamicObject>(), make: MutableSet.init(owner:))
    }

    /// The map of objects stored in the property named `propertyName`, as `DynamicObject`s (see
    /// `dynamicList(_:)`). Its values are optional: an entry whose object was deleted holds nil.
    public func dynamicMap<Key: _MapKey>(_ propertyName: String) -> Map<Key, DynamicObject?> {
        dynamicCollection(propertyName, kind: .map, fallback: Map<Key, DynamicObject?>(), make: Map.init(owner:))
    }

    private func dynamicCollection<C>(
        _ name: String, kind: StrataCore.CollectionKind, fallback: C, make: (_CollectionOwner) -> C
    ) -> C {
        guard let managed = _strataManaged else {
            return Realm.violation(
                "dynamicList, dynamicMutableSet and dynamicMap read managed objects only; '\(type(of: self).className())' is not managed by a realm.",
                fallback: fallback)
        }
        let realm = managed.realm
        guard realm.checkThread() else { return fallback }
        let state = realm.dynamicState(managed)
        let binding = state.binding
        guard let i = binding.dynamicPropertyIndex(name) else {
            return Realm.violation(
                "Invalid property name '\(name)' for class '\(binding.className)'.", fallback: fallback)
        }
        let column = binding.table.columns[binding.columns[i]]
        guard column.type == .link, column.collection == kind else {
            return Realm.violation(
                "Property '\(binding.className).\(name)' is \(Realm.describe(column)), not a \(kind == .map ? "map" : kind == .set ? "set" : "list") of objects.",
                fallback: fallback)
        }
        return make(_CollectionOwner(state: state, index: i))
    }
}
