import Foundation
import Strata

/// Opens a synced realm, offline first, publishing the open's state: RealmSwift's `@AutoOpen`.
///
/// ```swift
/// @AutoOpen(configuration: config, timeout: 2000) var autoOpen
///
/// if case .open(let realm) = autoOpen { showDogs(realm.objects(Dog.self)) }
/// ```
///
/// As `AsyncOpen`, except when the server cannot be reached (the session's first error, or no
/// connection within `timeout`): then the state becomes `.open(realm)` with the file as it is,
/// and the session goes on syncing in the background. Only an error opening the file itself
/// (or a configuration without sync) is `.error`.
///
/// RealmSwift's wrapper reads the configuration from the SwiftUI environment and the server from
/// an `App`; this one takes the configuration as an argument (the default configuration when
/// omitted), whose `syncConfiguration` names the server. `appId` is accepted so that RealmSwift
/// code compiles, and unused. There is no Combine publisher (`$asyncOpen`): read the wrapped
/// value inside `withObservationTracking` (or a SwiftUI body) to be told of each change.
@MainActor
@propertyWrapper
public struct AutoOpen {
    private let storage: AsyncOpenStorage

    /// The open's state; the first read starts the open.
    public var wrappedValue: AsyncOpenState {
        storage.startOnce()
        return storage.state
    }

    /// Stops the open: the state no longer changes.
    public func cancel() {
        storage.cancel()
    }

    /// A wrapper that opens the synced realm of `configuration`.
    /// - Parameters:
    ///   - appId: Unused (Strata has no `App`: `configuration.syncConfiguration` names the server).
    ///   - configuration: The realm to open; `Realm.Configuration.defaultConfiguration` when nil.
    ///     It needs a `syncConfiguration`.
    ///   - timeout: The milliseconds within which the connection to the server must be
    ///     established; nil for no limit.
    public init(appId: String? = nil, configuration: Realm.Configuration? = nil, timeout: UInt? = nil) {
        storage = AsyncOpenStorage(
            kind: .autoOpen, configuration: configuration ?? .defaultConfiguration, timeout: timeout)
    }
}
