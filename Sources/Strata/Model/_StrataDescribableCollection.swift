import Foundation

/// A collection a description prints element by element. Not API.
protocol _StrataDescribableCollection {
    func _strataDescription(depth: Int) -> String
}

extension _StrataDescribableCollection where Self: Sequence {
    /// `Name<Element> (\n\t[0] element,\n...)`, as RealmSwift prints collections in objects.
    func _strataDescribeElements(_ name: String, depth: Int) -> String {
        if depth > ObjectBase._strataDescriptionMaxDepth { return "<Maximum depth exceeded>" }
        let items = self.enumerated().map { index, element in
            let text = ObjectBase._strataDescribe(element, depth: depth + 1)
            return "\t[\(index)] \(text.replacingOccurrences(of: "\n", with: "\n\t"))"
        }
        return name + " (\n" + items.joined(separator: ",\n") + (items.isEmpty ? "" : "\n") + ")"
    }
}
