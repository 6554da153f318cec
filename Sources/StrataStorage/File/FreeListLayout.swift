/// Free-list entries: (freed-by version u64, first page u32, run length u32).
enum FreeListLayout {
    static let entrySize = 16
    static func capacity(pageSize: Int) -> Int { (pageSize - PageHeader.size) / entrySize }
}
