/// Carries a download's rows to the worker queue.
final class DownloadBox: @unchecked Sendable {
    let value: SyncServerLink.Download
    init(_ v: SyncServerLink.Download) { value = v }
}
