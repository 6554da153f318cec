import Foundation
import Strata
import StrataSync

/// The actor `sync_initial_download` (Sync.swift) opens its fresh replica on: the realm is
/// confined to it, so `Realm(configuration:actor:downloadBeforeOpen:)` can wait for the download
/// while the benchmark's main thread blocks.
actor SyncBenchOpener {
    /// Opens the synced realm of `configuration` with `downloadBeforeOpen: .always`, counts its
    /// `SyncBenchPerson` objects, and suspends its session (nothing more to sync).
    func openAndCount(_ configuration: Realm.Configuration) async throws -> Int {
        let realm = try await Realm(configuration: configuration, actor: self, downloadBeforeOpen: .always)
        let count = realm.objects(SyncBenchPerson.self).count
        realm.syncSession?.suspend()
        return count
    }
}
