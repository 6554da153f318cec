/// What a `WriteTransaction.modifyFloor` body did with the entry's value.
package enum FloorEdit: Equatable, Sendable {
    /// Nothing: the tree keeps the value as it was.
    case unchanged
    /// Changed the value's bytes where they are, keeping its length.
    case editedInPlace
    /// Wrote a new value of this many bytes into the buffer; it replaces the old one.
    case replaced(Int)
}
