/// Commit-list entries: page numbers (u32).
enum CommitListLayout {
    static func capacity(pageSize: Int) -> Int { (pageSize - PageHeader.size) / 4 }
}
