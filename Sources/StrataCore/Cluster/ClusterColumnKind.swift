/// How a column is laid out in a cluster.
@usableFromInline
enum ClusterColumnKind: UInt8, Sendable {
    /// No area: the `Int` primary key (the object key) and `LinkingObjects`.
    case none
    /// `Int` and link: an i64 base, then per object an unsigned delta of `width` bytes (0, 1, 2, 4, 8).
    case int
    /// Bool (1), Float (4), Double (8), Date (12), ObjectId (12), UUID (16), Decimal128 (16): raw
    /// little-endian values of `width` = the type's size, as in a row slot.
    case fixed
    /// String, Data, AnyRealmValue and collections: m end offsets of `width` (2 or 4) bytes, then
    /// the bytes. Object i's bytes are [end(i - 1), end(i)), end(-1) = 0.
    case variable
}
