import StrataStorage
import StrataQuery

/// A column a scan reads, with what its check in each cluster needs, looked up once per scan
/// (the table's layout arrays were read and bounds-checked per cluster).
struct ScannedColumn {
    let index: Int
    let kind: ClusterColumnKind
    let slotSize: Int

    init(_ table: StoreTable, _ c: Int) {
        index = c
        kind = table.layout.clusterKinds[c]
        slotSize = table.layout.slotSizes[c]
    }
}
