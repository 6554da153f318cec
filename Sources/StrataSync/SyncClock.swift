/// One reading of a hybrid logical clock, the stamp of every synced field write and delete.
///
/// `time` holds milliseconds since 1970 in its top 48 bits and a counter in its low 16 (so it
/// follows the wall clock but never goes back); `node` names the replica that made it (0 for
/// the server's clock, which stamps edits made directly in SQL) and breaks ties, so two
/// different writes never compare equal. The text form, kept in PostgreSQL, is 16 hex digits of
/// `time`, a dot and 16 of `node`: text order is clock order.
package struct SyncClock: Comparable, Hashable, Sendable, CustomStringConvertible {
    package var time: UInt64
    package var node: UInt64

    /// The clock below every stamp: "never written".
    package static let zero = SyncClock(time: 0, node: 0)

    package init(time: UInt64, node: UInt64) {
        self.time = time
        self.node = node
    }

    /// Parses the text form; nil when `text` is not one.
    package init?(text: some StringProtocol) {
        let parts = text.split(separator: ".")
        guard parts.count == 2, parts[0].count == 16, parts[1].count == 16,
            let t = UInt64(parts[0], radix: 16), let n = UInt64(parts[1], radix: 16)
        else { return nil }
        self.init(time: t, node: n)
    }

    /// The text form: `time` and `node` as 16 lowercase hex digits each, joined by a dot.
    package var text: String {
        var out: [UInt8] = []
        out.reserveCapacity(33)
        appendText(to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends `text`'s UTF-8 bytes: 16 lowercase hex digits of time, `.`, 16 of node.
    package func appendText(to out: inout [UInt8]) {
        Self.appendHex16(time, &out)
        out.append(UInt8(ascii: "."))
        Self.appendHex16(node, &out)
    }

    package var description: String { text }

    package static func < (a: SyncClock, b: SyncClock) -> Bool {
        a.time != b.time ? a.time < b.time : a.node < b.node
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    private static func appendHex16(_ v: UInt64, _ out: inout [UInt8]) {
        for shift in stride(from: 60, through: 0, by: -4) { out.append(hexDigits[Int((v >> UInt64(shift)) & 15)]) }
    }
}
