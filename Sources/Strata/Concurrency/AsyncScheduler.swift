import Dispatch
import Foundation

/// Where a realm's asynchronous work runs: the write blocks of `writeAsync`/`beginAsyncWrite` and
/// the completions of commits run here, never on the background threads that wait for the
/// write lock and sync the file.
///
/// - `main`: a realm of the main thread. Blocks go to `DispatchQueue.main` (which the main
///   `RunLoop` and `dispatchMain()` drain) and to the main `RunLoop` (which also runs while a
///   main-queue block spins it, as XCTest's waits do); `MainContextPump` runs each once, in order.
/// - `runLoop`: a realm of another thread that is running its `RunLoop`. Blocks arrive as
///   zero-interval timers, which wake the run loop from any thread.
/// - `queue`: a realm opened with `Realm(configuration:queue:)`; blocks go to that serial queue.
/// - `actor`: a realm opened with `Realm(configuration:actor:)`; blocks run isolated to the actor.
///
/// A plain thread with no run loop has no scheduler: nothing would ever run the blocks, so the
/// asynchronous write APIs refuse it (RealmSwift's "Cannot schedule async transaction").
///
/// ## Concurrency
/// `Sendable`: `schedule` may be called from any thread.
enum AsyncScheduler: @unchecked Sendable {
    case main
    case runLoop(RunLoop)
    case queue(DispatchQueue)
    case actor(ActorBinding)

    /// The scheduler of the calling context for a realm confined as `confinement`, or nil.
    static func current(for realmState: RealmState) -> AsyncScheduler? {
        switch realmState.confinement {
        case .main:
            return .main
        case .thread:
            // `currentMode` is set only while the run loop runs (we are inside one of its callouts).
            if RunLoop.current.currentMode != nil { return .runLoop(RunLoop.current) }
            return nil
        case .queue:
            return realmState.queue.map { .queue($0) }
        case .actor(let binding):
            return .actor(binding)
        case .frozen:
            return nil
        }
    }

    /// Runs `body` soon on this scheduler. Returns false when the scheduler is gone (its actor
    /// was deinitialized), in which case `body` never runs.
    @discardableResult
    func schedule(_ body: @escaping () -> Void) -> Bool {
        let job = UncheckedBox(body)
        switch self {
        case .main:
            MainContextPump.shared.schedule(job)
        case .runLoop(let runLoop):
            let timer = Timer(timeInterval: 0, repeats: false) { _ in job.value() }
            runLoop.add(timer, forMode: .common)
        case .queue(let queue):
            queue.async { job.value() }
        case .actor(let binding):
            guard let actor = binding.actor else { return false }
            Task { await AsyncScheduler.run(isolatedTo: actor, job) }
        }
        return true
    }

    /// Runs `job` isolated to `actor`. The job touches confined state, which is safe because it
    /// runs in the realm's own context.
    private static func run(isolatedTo actor: isolated any Actor, _ job: UncheckedBox<() -> Void>) {
        job.value()
    }
}
