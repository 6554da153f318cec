import Foundation
internal import StrataCore

// Change notifications of results of values (`player.scores.sorted(ascending:).observe { }`):
// the owner's collection is observed, and on each change the results are evaluated again and
// compared with the ones last delivered. Equal values are told apart by occurrence (the second 3
// is another element than the first), so the indices are those of a diff of the two arrays;
// values have no identity that could be "modified", so a changed value is a deletion and an
// insertion. A change of the collection that leaves the results as they were delivers nothing.

extension Results {
    /// The results last delivered to one observer, on its delivery context only.
    final class _DeliveredValues {
        var elements: [Element] = []
    }

    /// One element of results of values told apart from equal ones by its occurrence.
    struct _Occurrence: Hashable {
        let value: Element
        let occurrence: Int
    }

    static func _occurrences(_ elements: [Element]) -> [_Occurrence] {
        var seen: [Element: Int] = [:]
        return elements.map { e in
            let n = seen[e, default: 0]
            seen[e] = n + 1
            return _Occurrence(value: e, occurrence: n)
        }
    }

    /// `observe(keyPaths:on:_:)` of results of values.
    func observeValues(
        _ source: _ValueResults, place: DeliveryPlace,
        _ block: @escaping (RealmCollectionChange<Results<Element>>) -> Void
    ) -> NotificationToken {
        let delivered = _DeliveredValues()
        let owner = source.owner
        guard let target = place.target(for: owner.state.realm) else { return NotificationToken() }
        return owner.observe(keyPaths: nil, target: target, isMap: source.kind == .map) { event in
            { realm in
                let results = Results(values: source.moved(to: owner.moved(to: realm)))
                switch event {
                case .initial:
                    delivered.elements = results.valueElements(results.values ?? source)
                    block(.initial(results))
                case .update, .mapUpdate:
                    let now = results.valueElements(results.values ?? source)
                    let diff = CollectionDiff.between(
                        Self._occurrences(delivered.elements), Self._occurrences(now), isModified: { _ in false })
                    delivered.elements = now
                    if !diff.isEmpty {
                        block(
                            .update(results, deletions: diff.deletions, insertions: diff.insertions, modifications: []))
                    }
                case .error(let e): block(.error(e))
                }
            }
        }
    }
}
