import Foundation
internal import StrataCore
internal import StrataStorage

// Damage found while reading: a file whose pages fail their checks is not a programming error,
// so it never stops the process. Calls that throw (opening, `write`, `beginWrite`,
// `commitWrite`, `asyncWrite`) throw `Realm.Error.invalidDatabase`; reads that cannot throw
// (property getters, `count`, iteration, queries) report it to `Realm.damageHandler` once per
// file and return an empty value (nil, 0, no objects), and from then on every write to that file
// in this process throws, so nothing is written on top of damage. Docs/Errors.md.

extension Realm {
    /// Called, once per file and process, when a read that cannot throw (a property getter,
    /// `count`, iterating results, a query) finds the file damaged. The read returns an empty
    /// value (nil, zero, no objects); later writes to the file throw the same error.
    ///
    /// Without a handler, Strata prints the message to standard error. Set one to log it your
    /// way or to tell the user (the message says what to do: restore a backup, or run
    /// `strata verify`).
    ///
    /// ```swift
    /// Realm.damageHandler = { error in logger.critical("\(error.message)") }
    /// ```
    ///
    /// ## Concurrency
    /// Called on the thread that found the damage. Set it once, before opening realms.
    public nonisolated(unsafe) static var damageHandler: ((Realm.Error) -> Void)?

    /// Whether `error`, met while reading, means the file is damaged (rather than a deleted
    /// object or a mistake of the caller).
    static func isDamage(_ error: Swift.Error) -> Bool {
        switch error {
        case let e as StorageError:
            switch e {
            case .corruptPage, .truncated, .damagedCommit, .notADatabase, .byteOrderMismatch, .pageAuthenticationFailed:
                return true
            default: return false
            }
        case let e as StoreError:
            switch e {
            case .corruptRow, .corrupt: return true
            default: return false
            }
        case let e as Realm.Error:
            return e.code == .invalidDatabase
        default:
            return false
        }
    }

    /// Handles an error met by a read that cannot throw: damage goes to ``damageHandler``
    /// (returning `fallback`, and making the current write fail), anything else is a violation
    /// with `message`, as before.
    func readFailed<T>(_ error: Swift.Error, _ message: String, fallback: T) -> T {
        readFailed(error, message) ? fallback : Realm.violation(message, fallback: fallback)
    }

    /// `readFailed(_:_:fallback:)` out of line (error paths only): whether it was damage, reported.
    @inline(never)
    private func readFailed(_ error: Swift.Error, _ message: String) -> Bool {
        guard Realm.isDamage(error) else { return false }
        let e = file.recordDamage(error)
        if isInWriteTransaction { fail(e) }
        return true
    }

    /// The damage this process found in the file, if any: writes throw it.
    func throwIfDamaged() throws {
        if let e = file.damage { throw e }
    }
}

extension RealmFile {
    /// The first damage found in this file by a read of this process, as the error writes throw.
    var damage: Realm.Error? {
        lock.lock()
        defer { lock.unlock() }
        return damageFound
    }

    /// Records damage met while reading (the first one wins) and reports it once; returns the
    /// error writes will throw.
    @discardableResult
    func recordDamage(_ error: Swift.Error) -> Realm.Error {
        lock.lock()
        if let e = damageFound {
            lock.unlock()
            return e
        }
        let detail = (error as? Realm.Error)?.message ?? "\(error)"
        let e = Realm.Error(
            .invalidDatabase,
            "The realm file at '\(path)' is damaged: \(detail) Reads of the damaged part return empty values and writes to the file are refused. Restore the file from a backup; `strata verify` lists every damaged page.",
            path: path)
        damageFound = e
        lock.unlock()
        if let handler = Realm.damageHandler {
            handler(e)
        } else {
            FileHandle.standardError.write(Data(("Strata: " + e.message + "\n").utf8))
        }
        return e
    }
}

extension Realm {
    /// A stored value that does not decode as its property's type. The file's schema was compared
    /// with the models when it was opened, so this is damage (reported through `damageHandler`),
    /// not a mistake of the caller. Called by generated and inlined accessors.
    public func _strataStoredValueDoesNotFit(
        _ state: ManagedObjectState, _ index: Int, _ value: PropertyValue, expected: String
    ) {
        let property = "\(state.binding.className).\(state.binding.schema.properties[index].name)"
        let error = Realm.Error(
            .invalidDatabase,
            "the stored value of '\(property)' of object \(state.key) (\(value.kindName)) is not a \(expected).",
            path: file.path)
        readFailed(error, "", fallback: ())
    }
}
