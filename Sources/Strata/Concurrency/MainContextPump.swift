import Foundation

/// Runs jobs of main-thread realms in order, through whichever of the main context's two drains
/// reaches them first: the main dispatch queue (which `dispatchMain()` drains, off the main
/// thread) or the main run loop.
///
/// The run loop matters when a main-queue block waits by spinning the run loop, as
/// `XCTestCase.wait` does inside `DispatchQueue.main.async`: the main queue is serial and cannot
/// drain while one of its blocks runs, but the run loop's timers still fire. RealmSwift schedules
/// on the run loop and so runs its asynchronous writes there; with the queue alone they would wait
/// until the block returned.
///
/// Each job is announced to both drains; each announcement runs the oldest job still waiting,
/// so jobs run once each and in the order they were scheduled. When no job is left waiting, the
/// timers still scheduled are invalidated: under `dispatchMain()` the main run loop never runs,
/// and its timers would otherwise pile up, one per job.
///
/// ## Concurrency
/// `Sendable`: the job list is behind a lock; jobs run on the main context.
final class MainContextPump: @unchecked Sendable {
    static let shared = MainContextPump()

    private let lock = NSLock()
    private var jobs: [UncheckedBox<() -> Void>] = []
    private var head = 0
    /// Timers announcing jobs, until no job is left waiting.
    private var timers: [Timer] = []

    /// Schedules `job` on the main context.
    func schedule(_ job: UncheckedBox<() -> Void>) {
        let timer = Timer(timeInterval: 0, repeats: false) { _ in self.runOldest() }
        lock.lock()
        jobs.append(job)
        timers.append(timer)
        lock.unlock()
        DispatchQueue.main.async { self.runOldest() }
        RunLoop.main.add(timer, forMode: .common)
    }

    /// Runs the oldest waiting job, if any is left (the other drain may have run it).
    private func runOldest() {
        lock.lock()
        guard head < jobs.count else {
            lock.unlock()
            return
        }
        let job = jobs[head]
        head += 1
        var idle: [Timer] = []
        if head == jobs.count {
            jobs.removeAll(keepingCapacity: true)
            head = 0
            swap(&idle, &timers)
        } else if head > 64 && head * 2 > jobs.count {
            jobs.removeFirst(head)
            head = 0
        }
        lock.unlock()
        for timer in idle { timer.invalidate() }
        job.value()
    }
}
