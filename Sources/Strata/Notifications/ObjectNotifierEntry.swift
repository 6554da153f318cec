import Foundation
internal import StrataCore

/// The observer of one object.
final class ObjectNotifierEntry: NotifierEntry, @unchecked Sendable {
    enum Event {
        case change([PropertyChange])
        case deleted
        case error(Swift.Error)
    }

    let key: Int64
    let binding: TableBinding
    let filter: KeyPathFilter
    let makeJob: (Event) -> NotificationJob
    private var finished = false

    init(
        token: NotificationToken, target: DeliveryTarget, key: Int64, binding: TableBinding, filter: KeyPathFilter,
        makeJob: @escaping (Event) -> NotificationJob
    ) {
        self.key = key
        self.binding = binding
        self.filter = filter
        self.makeJob = makeJob
        super.init(token: token, target: target, needsInitial: false)
    }

    override func update(_ span: ChangeSpan, silently: Bool) throws -> NotificationJob? {
        if finished { return nil }
        let table = binding.table
        let changes = try span.changes(table.name)
        let exists = try span.new.row(table, key: key) != nil
        if changes.deleted.contains(key) || !exists {
            finished = true
            return silently ? nil : guarded(makeJob(.deleted))
        }
        let columns = changes.modified[key] ?? ColumnSet()
        let viaLinks = Set(try filter.changedLinks(of: key, span).map(\.column))
        if !columns.intersects(filter.columns) && viaLinks.isEmpty { return nil }
        if silently { return nil }
        let oldRow = try span.old?.row(table, key: key)
        let newRow = try span.new.row(table, key: key)
        var out: [PropertyChange] = []
        for (i, p) in binding.schema.properties.enumerated() {
            let c = binding.columns[i]
            guard filter.columns.contains(c) else { continue }
            let column = table.columns[c]
            if columns.contains(c) && columns != .all || columns == .all && oldRow?.value(c) != newRow?.value(c) {
                if column.type == .link, let target = column.targetTable {
                    out.append(
                        PropertyChange(
                            name: p.name, oldValue: nil, newValue: nil,
                            linkKeys: .init(
                                table: target, old: oldRow.flatMap { linkedKey($0.value(c)) },
                                new: newRow.flatMap { linkedKey($0.value(c)) })))
                } else {
                    out.append(
                        PropertyChange(
                            name: p.name, oldValue: oldRow.flatMap { propertyScalar($0.value(c)) }?.strataAnyValue,
                            newValue: newRow.flatMap { propertyScalar($0.value(c)) }?.strataAnyValue))
                }
            } else if viaLinks.contains(c) {
                // A property of a linked object changed: the link itself is the same object.
                let linked =
                    column.type == .link && column.targetTable != nil ? newRow.flatMap { linkedKey($0.value(c)) } : nil
                out.append(
                    PropertyChange(
                        name: p.name, oldValue: nil, newValue: nil,
                        linkKeys: linked.map { .init(table: column.targetTable!, old: $0, new: $0) }))
            }
        }
        if out.isEmpty { return nil }
        return guarded(makeJob(.change(out)))
    }

    /// The key a link value holds; nil for a null link.
    private func linkedKey(_ value: StoreValue) -> Int64? {
        if case .link(let key) = value { return key }
        return nil
    }

    override func errorJob(_ error: Swift.Error) -> NotificationJob? {
        if finished { return nil }
        finished = true
        return guarded(makeJob(.error(error)))
    }
}
