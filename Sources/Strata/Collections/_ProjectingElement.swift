/// Elements of `Results` that wrap the objects the results hold rather than being them: the
/// projections of `realm.objects(PersonProjection.self)`. Not API.
protocol _ProjectingElement {
    /// The element for `object`, nil when `object` is not of the projected class.
    static func _strataProjecting(_ object: ObjectBase) -> Self?
    /// The projected class: the class of the objects results of this element query.
    static var _strataRootType: ObjectBase.Type { get }
}

/// The class of the objects results of `Element` hold: `Element` itself for an object class,
/// the projected class for a projection class; nil for values.
func _resultsObjectType<Element>(_: Element.Type) -> ObjectBase.Type? {
    (Element.self as? ObjectBase.Type) ?? (Element.self as? _ProjectingElement.Type)?._strataRootType
}

/// The element of results of `Element` for `object`: the object itself (an object class, or an
/// optional one for a map of objects), else a projection of it. Nil when neither fits.
@inline(__always)
func _resultsElement<Element>(_ object: ObjectBase, as _: Element.Type) -> Element? {
    if let element = object as? Element { return element }
    return _projectedElement(object, as: Element.self)
}

/// The projection of `object` when `Element` is a projection class; nil otherwise. Out of line:
/// only results of projections come here.
@inline(never)
func _projectedElement<Element>(_ object: ObjectBase, as _: Element.Type) -> Element? {
    (Element.self as? _ProjectingElement.Type)?._strataProjecting(object) as? Element
}
