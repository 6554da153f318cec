import Foundation
import StrataCore

/// One change of one object as the outbox holds it and the uploader sends it: a write of some
/// fields (each with its clock) or a delete (with its clock). The primary key is in its text
/// form; values are in wire form (`SyncTable`).
package struct SyncOperation: Equatable, Sendable {
    package var table: String
    package var key: String
    /// The delete's clock, for a delete.
    package var deleteClock: SyncClock?
    /// Field name -> (value, clock), for a write.
    package var fields: [String: SyncRecord<StoreValue>.Field]

    package init(table: String, key: String, deleteClock: SyncClock?, fields: [String: SyncRecord<StoreValue>.Field]) {
        self.table = table
        self.key = key
        self.deleteClock = deleteClock
        self.fields = fields
    }

    /// JSON: `{"t": table, "k": key, "d": clock}` for a delete, `{"t": table, "k": key, "f":
    /// {name: [value, clock], ...}}` for a write.
    package func json(_ table: SyncTable) -> String {
        var s = "{\"t\":" + SyncTable.jsonString(self.table) + ",\"k\":" + SyncTable.jsonString(key)
        if let d = deleteClock { return s + ",\"d\":\"" + d.text + "\"}" }
        s += ",\"f\":{"
        var first = true
        for f in table.fields {
            guard let v = fields[f.name] else { continue }
            if !first { s += "," }
            first = false
            s += SyncTable.jsonString(f.name) + ":[" + f.json(v.value) + ",\"" + v.clock.text + "\"]"
        }
        return s + "}}"
    }

    /// Reads the operations of one outbox entry; unknown tables or fields are skipped (a schema
    /// that lost them since).
    package static func decode(_ bytes: [UInt8], tables: [String: SyncTable]) throws -> [SyncOperation] {
        guard let list = try JSONSerialization.jsonObject(with: Data(bytes)) as? [[String: Any]] else {
            throw SyncError(.local, "An outbox entry is not a JSON array of changes.")
        }
        var out: [SyncOperation] = []
        for o in list {
            guard let t = o["t"] as? String, let k = o["k"] as? String, let table = tables[t] else { continue }
            if let d = o["d"] as? String {
                guard let c = SyncClock(text: d) else { continue }
                out.append(SyncOperation(table: t, key: k, deleteClock: c, fields: [:]))
                continue
            }
            var fields: [String: SyncRecord<StoreValue>.Field] = [:]
            for (name, pair) in o["f"] as? [String: Any] ?? [:] {
                guard let i = table.fieldIndex[name], let p = pair as? [Any], p.count == 2,
                    let cs = p[1] as? String, let c = SyncClock(text: cs),
                    let v = table.fields[i].value(fromJSON: p[0])
                else { continue }
                fields[name] = .init(value: v, clock: c)
            }
            out.append(SyncOperation(table: t, key: k, deleteClock: nil, fields: fields))
        }
        return out
    }
}
