import Dispatch
internal import Synchronization
import Foundation
internal import StrataCore
internal import StrataStorage

/// Asks the Swift runtime whether code runs on an executor.
///
/// Swift has no public query that answers with a Bool (`Actor.preconditionIsolated()` stops the
/// process instead), so this calls the runtime's `swift_task_isCurrentExecutorWithFlags` with no
/// flags (answer, never trap), looked up once with `dlsym`. Its C ABI takes the executor's two
/// words and the flags. If a future runtime lacks the symbol, actor confinement is not checked
/// (the answer is always true) rather than refusing every access.
enum ActorIsolation {
    private typealias Query = @convention(c) (UnsafeRawPointer?, UInt, UInt64) -> Bool
    private static let query: Query? = {
        guard let symbol = dlsym(nil, "swift_task_isCurrentExecutorWithFlags") else { return nil }
        return unsafeBitCast(symbol, to: Query.self)
    }()

    static func isCurrent(_ executor: UnownedSerialExecutor) -> Bool {
        guard let query else { return true }
        let words = unsafeBitCast(executor, to: (UnsafeRawPointer?, UInt).self)
        return query(words.0, words.1, 0)
    }
}
