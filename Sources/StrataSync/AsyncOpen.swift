import Foundation
import Strata

/// Opens a synced realm once the server's data is in it, publishing the open's state: RealmSwift's
/// `@AsyncOpen`.
///
/// ```swift
/// @AsyncOpen(configuration: config, timeout: 4000) var asyncOpen
///
/// switch asyncOpen {
/// case .connecting, .waitingForUser: showSpinner()
/// case .progress(let progress): show(progress.fractionCompleted)
/// case .open(let realm): showDogs(realm.objects(Dog.self))
/// case .error(let error): show(error)
/// }
/// ```
///
/// The first read of the wrapped value starts the open on the main actor: the realm opens, its
/// session downloads the server's data (`.progress` while it does), and the state becomes
/// `.open(realm)`, or `.error` at the session's first error (a server that cannot be reached, bad
/// credentials, a schema mismatch) or when no connection was established within `timeout`.
///
/// RealmSwift's wrapper reads the configuration from the SwiftUI environment and the server from
/// an `App`; this one takes the configuration as an argument (the default configuration when
/// omitted), whose `syncConfiguration` names the server. `appId` is accepted so that RealmSwift
/// code compiles, and unused. There is no Combine publisher (`$asyncOpen`): read the wrapped
/// value inside `withObservationTracking` (or a SwiftUI body) to be told of each change.
@MainActor
@propertyWrapper
public struct AsyncOpen {
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
            kind: .asyncOpen, configuration: configuration ?? .defaultConfiguration, timeout: timeout)
    }
}
