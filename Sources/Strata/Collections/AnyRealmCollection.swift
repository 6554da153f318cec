import Foundation

/// Any `RealmCollection` of `Element`s behind one type: `Results`, `List`, `MutableSet`,
/// `LinkingObjects`, for a property or a parameter that takes whichever one the caller has.
///
/// ```swift
/// let dogs: AnyRealmCollection<Dog> = person.map { AnyRealmCollection($0.dogs) }
///     ?? AnyRealmCollection(realm.objects(Dog.self))
/// print(dogs.filter("age > 1").count)
/// ```
///
/// Every operation is the wrapped collection's. Two `AnyRealmCollection`s are equal when they
/// wrap equal collections of the same type. `observe` delivers the wrapped collection's changes.
///
/// ## Concurrency
/// Not `Sendable`: confined as the wrapped collection is.
public struct AnyRealmCollection<Element: RealmCollectionValue>: RealmCollection {
    let base: _AnyRealmCollectionBase<Element>

    /// Wraps `base`.
    public init<C: RealmCollection>(_ base: C) where C.Element == Element {
        self.base = _AnyRealmCollectionBox(base)
    }

    init(box: _AnyRealmCollectionBase<Element>) { base = box }

    /// The position of the first element (0).
    public var startIndex: Int { 0 }
    /// One past the last element; equals `count`.
    public var endIndex: Int { base.count }
    /// The element at `position`.
    public subscript(position: Int) -> Element { base.element(at: position) }
    /// The number of elements.
    public var count: Int { base.count }
    /// The wrapped collection's description.
    public var description: String { base.description }
    /// The realm of the wrapped collection, nil when unmanaged.
    public var realm: Realm? { base.realm }
    /// Whether the wrapped collection can no longer be read.
    public var isInvalidated: Bool { base.isInvalidated }
    /// Whether the wrapped collection is frozen.
    public var isFrozen: Bool { base.isFrozen }
    /// The wrapped collection frozen, wrapped.
    public func freeze() -> AnyRealmCollection<Element> { AnyRealmCollection(box: base.freeze()) }
    /// The wrapped collection thawed, wrapped; nil when it no longer exists.
    public func thaw() -> AnyRealmCollection<Element>? { base.thaw().map { AnyRealmCollection(box: $0) } }

    /// The position of `object`, nil when absent.
    public func index(of object: Element) -> Int? { base.index(of: object) }
    /// The position of the first element matching `predicateFormat`, nil when none does.
    public func index(matching predicateFormat: String, _ args: Any...) -> Int? {
        base.filter(predicateFormat, args).first.flatMap { base.index(of: $0) }
    }
    /// The position of the first element for which `isIncluded` holds, nil when none does.
    public func index(matching isIncluded: (Query<Element>) -> Query<Bool>) -> Int? {
        base.where(isIncluded).first.flatMap { base.index(of: $0) }
    }
    /// The elements at `indexes`, in index order.
    public func objects(at indexes: IndexSet) -> [Element] { base.objects(at: indexes) }

    /// The elements matching `predicateFormat`, as live results.
    public func filter(_ predicateFormat: String, _ args: Any...) -> Results<Element> {
        base.filter(predicateFormat, args)
    }
    /// The elements for which `isIncluded` holds, as live results.
    public func `where`(_ isIncluded: (Query<Element>) -> Query<Bool>) -> Results<Element> {
        base.where(isIncluded)
    }
    /// The elements sorted by the property `keyPath` names.
    public func sorted(byKeyPath keyPath: String, ascending: Bool = true) -> Results<Element> {
        base.sorted(by: [SortDescriptor(keyPath: keyPath, ascending: ascending)])
    }
    /// The elements sorted by several properties, the first deciding first.
    public func sorted<S: Sequence>(by sortDescriptors: S) -> Results<Element> where S.Element == SortDescriptor {
        base.sorted(by: Array(sortDescriptors))
    }
    /// The first element of each distinct combination of the values of `keyPaths`.
    public func distinct<S: Sequence>(by keyPaths: S) -> Results<Element> where S.Element == String {
        base.distinct(by: Array(keyPaths))
    }

    /// The smallest value of `property`, nil when there is none.
    public func min<T: _PropertyValueConvertible & Comparable>(ofProperty property: String) -> T? {
        base.results.min(ofProperty: property)
    }
    /// The largest value of `property`, nil when there is none.
    public func max<T: _PropertyValueConvertible & Comparable>(ofProperty property: String) -> T? {
        base.results.max(ofProperty: property)
    }
    /// The sum of `property`.
    public func sum<T: _PropertyValueConvertible & AdditiveArithmetic>(ofProperty property: String) -> T {
        base.results.sum(ofProperty: property)
    }
    /// The average of `property`, nil when there are no values.
    public func average<T: BinaryFloatingPoint>(ofProperty property: String) -> T? {
        base.results.average(ofProperty: property)
    }

    /// The value of the property named `key` of each element.
    public func value(forKey key: String) -> Any? { base.value(forKeyPath: key) }
    /// The value of `keyPath` of each element.
    public func value(forKeyPath keyPath: String) -> Any? { base.value(forKeyPath: keyPath) }
    /// Sets the property named `key` of every element.
    public func setValue(_ value: Any?, forKey key: String) { base.setValue(value, forKey: key) }

    /// Whether the two wrap equal collections of the same type.
    public static func == (lhs: AnyRealmCollection<Element>, rhs: AnyRealmCollection<Element>) -> Bool {
        lhs.base.isEqual(to: rhs.base)
    }

    /// Calls `block` with the wrapped collection's changes, as its own `observe` does, with the
    /// collection wrapped.
    public func observe(
        keyPaths: [String]? = nil, on queue: DispatchQueue? = nil,
        _ block: @escaping (RealmCollectionChange<AnyRealmCollection<Element>>) -> Void
    ) -> NotificationToken {
        base.observe(keyPaths: keyPaths, place: .queue(queue), block)
    }

    /// `observe(keyPaths:on:_:)` delivering at `place`; `block` runs there.
    func observe(
        keyPaths: [String]?, place: DeliveryPlace,
        _ block: @escaping (RealmCollectionChange<AnyRealmCollection<Element>>) -> Void
    ) -> NotificationToken {
        base.observe(keyPaths: keyPaths, place: place, block)
    }

    /// `observe(keyPaths:on:_:)` delivering on `actor`: the block runs isolated to it, with the
    /// wrapped collection read from a realm confined to the actor (opened on the first delivery).
    /// - Returns: A token to keep; `invalidate()` or releasing it stops the notifications.
    public func observe<A: Actor>(
        keyPaths: [String]? = nil, on actor: A, isolation: isolated (any Actor)? = #isolation,
        _ block: @Sendable @escaping (isolated A, RealmCollectionChange<AnyRealmCollection<Element>>) -> Void
    ) async -> NotificationToken {
        base.observe(keyPaths: keyPaths, place: .actor(actor)) { change in
            let box = UncheckedBox(change)
            actor.assumeIsolated { a in block(a, box.value) }
        }
    }
}
