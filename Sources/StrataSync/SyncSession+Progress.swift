import Foundation

extension SyncSession {
    /// How much of the upload or download a progress notification has seen.
    public struct Progress: Sendable, Equatable {
        /// Bytes transferred so far (since the notification was registered, for
        /// `.forCurrentlyOutstandingWork`; since the session started otherwise).
        public let transferredBytes: Int
        /// Bytes transferred plus bytes known to be waiting.
        public let transferrableBytes: Int

        /// `transferredBytes / transferrableBytes`, 1 when nothing waits.
        public var progressEstimate: Double {
            transferrableBytes == 0 ? 1 : min(1, Double(transferredBytes) / Double(transferrableBytes))
        }

        /// RealmSwift's older name for `progressEstimate`.
        public var fractionTransferred: Double { progressEstimate }

        /// Whether everything known to be waiting is transferred.
        public var isTransferComplete: Bool { transferredBytes >= transferrableBytes }
    }

    /// Which work a progress notification follows.
    public enum ProgressMode: Sendable, Equatable {
        /// Every transfer, for as long as the token lives.
        case reportIndefinitely
        /// The work outstanding when it was registered; it ends (one last call with
        /// `isTransferComplete`) once that is transferred.
        case forCurrentlyOutstandingWork
    }

    /// Calls `block` on a background thread with the progress of uploads (the bytes of the
    /// outbox entries, as they reach the server) or downloads (the bytes of each download pass,
    /// once it is applied), once at registration and after each transfer. Returns nil when the
    /// session has stopped for good.
    ///
    /// ```swift
    /// let token = realm.syncSession?.addProgressNotification(for: .upload, mode: .forCurrentlyOutstandingWork) {
    ///     if $0.isTransferComplete { print("all local changes are on the server") }
    /// }
    /// ```
    public func addProgressNotification(
        for direction: ProgressDirection, mode: ProgressMode, block: @escaping (Progress) -> Void
    ) -> ProgressNotificationToken? {
        engine?.addProgressNotification(direction, mode, block)
    }
}
