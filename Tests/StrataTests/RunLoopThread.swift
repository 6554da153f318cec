import Foundation

/// A thread that runs its `RunLoop` until stopped; `perform` runs a closure on it.
final class RunLoopThread: @unchecked Sendable {
    private var runLoop: RunLoop?
    private let ready = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)
    private var stopped = false
    private let lock = NSLock()

    init() {
        let thread = Thread { [self] in
            let loop = RunLoop.current
            // A far-off repeating timer keeps the run loop from returning for lack of sources.
            loop.add(Timer(timeInterval: 3600, repeats: true) { _ in }, forMode: .default)
            lock.withLock { runLoop = loop }
            ready.signal()
            while !lock.withLock({ stopped }) {
                _ = loop.run(mode: .default, before: Date(timeIntervalSinceNow: 0.05))
            }
            finished.signal()
        }
        thread.start()
        ready.wait()
    }

    /// Runs `body` on the thread, from inside its run loop.
    func perform(_ body: @escaping () -> Void) {
        let box = UncheckedClosure(body)
        let loop = lock.withLock { runLoop! }
        loop.add(Timer(timeInterval: 0, repeats: false) { _ in box.body() }, forMode: .default)
    }

    func stop() {
        lock.withLock { stopped = true }
        finished.wait()
    }
}

fileprivate final class UncheckedClosure: @unchecked Sendable {
    let body: () -> Void
    init(_ body: @escaping () -> Void) { self.body = body }
}
