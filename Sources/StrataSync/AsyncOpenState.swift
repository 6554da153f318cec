import Foundation
import Strata

/// The state of an ``AsyncOpen`` or ``AutoOpen`` wrapper's open of a synced realm, as RealmSwift
/// has it.
///
/// ```swift
/// switch asyncOpen {
/// case .connecting, .waitingForUser: showSpinner()
/// case .progress(let progress): show(progress.fractionCompleted)
/// case .open(let realm): showDogs(realm.objects(Dog.self))
/// case .error(let error): show(error)
/// }
/// ```
public enum AsyncOpenState {
    /// Opening the file and connecting to the server.
    case connecting
    /// RealmSwift's state while no user is logged in. Strata has no users (the configuration's
    /// `SyncConfiguration` names the server and its credentials), so a wrapper never shows it.
    case waitingForUser
    /// The realm, ready for use on the main actor. For ``AsyncOpen`` the server's data at the time
    /// of the open is in it; for ``AutoOpen`` it may be the file as it was when the server could
    /// not be reached (its session goes on syncing in the background).
    case open(Realm)
    /// Downloading the server's data: `completedUnitCount` of `totalUnitCount` bytes.
    case progress(Progress)
    /// The open failed: a file that cannot be opened, a configuration without sync, or (for
    /// ``AsyncOpen``) the server's error or the connection timeout.
    case error(Error)
}
