import Foundation
import Strata
import StrataPOSIX
import StrataStorage
import XCTest

/// Asynchronous writes of realms on the main thread, on queues and on threads with run loops.
final class AsyncWriteSchedulerTests: AsyncWriteTestCase {
    // MARK: Schedulers

    func testWriteAsyncOnAPlainThreadSaysItNeedsARunLoop() throws {
        let path = url()
        let messages = ViolationLog()
        Realm.violationHandler = { messages.record($0) }
        let id = onNewThread { () -> AsyncTransactionId in
            let realm = try! Realm(configuration: Realm.Configuration(fileURL: path))
            return realm.writeAsync { XCTFail("no scheduler: the block must not run") }
        }
        XCTAssertEqual(id, 0)
        let taken = messages.take()
        XCTAssertEqual(taken.count, 1)
        XCTAssertTrue(
            taken.first?.hasPrefix(
                "Cannot schedule async transaction. Make sure you are running from inside a run loop.") ?? false)
    }

    func testWriteAsyncOnAThreadRunningItsRunLoop() throws {
        let thread = RunLoopThread()
        defer { thread.stop() }
        let path = url()
        let done = expectation(description: "completion")
        let onThread = Locked<[Bool]>([])
        thread.perform {
            let realm = try! Realm(configuration: Realm.Configuration(fileURL: path))
            let me = Thread.current
            realm.writeAsync {
                onThread.mutate { $0.append(Thread.current == me) }
                realm.add(Person(value: ["id": 1, "name": "run loop"]))
            } onComplete: { error in
                onThread.mutate { $0.append(Thread.current == me && error == nil) }
                done.fulfill()
            }
        }
        wait(for: [done], timeout: 20)
        XCTAssertEqual(onThread.value, [true, true])
        XCTAssertEqual(try open().object(ofType: Person.self, forPrimaryKey: 1)?.name, "run loop")
    }

    func testQueueConfinedRealmRunsBlocksAndCompletionsOnItsQueue() throws {
        let queue = DispatchQueue(label: "strata.test.async")
        let key = DispatchSpecificKey<Int>()
        queue.setSpecific(key: key, value: 42)
        let path = url()
        let done = expectation(description: "completions")
        let checks = Locked<[Bool]>([])
        queue.async {
            let realm = try! Realm(configuration: Realm.Configuration(fileURL: path), queue: queue)
            for i in 0..<10 {
                realm.writeAsync {
                    checks.mutate { $0.append(DispatchQueue.getSpecific(key: key) == 42) }
                    realm.add(Person(value: ["id": i]))
                } onComplete: { error in
                    checks.mutate { $0.append(DispatchQueue.getSpecific(key: key) == 42 && error == nil) }
                    if i == 9 { done.fulfill() }
                }
            }
        }
        wait(for: [done], timeout: 20)
        XCTAssertEqual(checks.value, Array(repeating: true, count: 20))
        XCTAssertEqual(try open().objects(Person.self).count, 10)
    }

    /// Several queues, each interleaving asynchronous and synchronous writes: nothing is lost,
    /// each writer's asynchronous writes commit in the order it queued them (and its
    /// synchronous ones in program order), and every transaction saw all earlier commits.
    func testInterleavedAsyncAndSyncWritesFromSeveralQueues() throws {
        let writers = 3, perWriter = 40
        let path = url()
        let group = DispatchGroup()
        let errors = Locked<[String]>([])
        for w in 0..<writers {
            let queue = DispatchQueue(label: "strata.test.writer\(w)")
            group.enter()
            queue.async {
                let realm = try! Realm(configuration: Realm.Configuration(fileURL: path), queue: queue)
                var outstanding = 0
                func record(_ seq: Int) {
                    realm.add(
                        AsyncLogEntry(value: [
                            "id": w * 1000 + seq, "writer": w, "seq": seq,
                            "seen": realm.objects(AsyncLogEntry.self).count,
                        ]))
                }
                func finishOne() {
                    outstanding -= 1
                    if outstanding == 0 { group.leave() }
                }
                outstanding = perWriter
                for seq in 0..<perWriter {
                    switch seq % 4 {
                    case 0:
                        do { try realm.write { record(seq) } } catch { errors.mutate { $0.append("\(error)") } }
                        finishOne()
                    case 1:
                        realm.writeAsync {
                            record(seq)
                        } onComplete: { error in
                            if let error { errors.mutate { $0.append("\(error)") } }
                            finishOne()
                        }
                    default:
                        realm.beginAsyncWrite {
                            record(seq)
                            realm.commitAsyncWrite(allowGrouping: seq % 4 == 2) { error in
                                if let error { errors.mutate { $0.append("\(error)") } }
                                finishOne()
                            }
                        }
                    }
                }
            }
        }
        XCTAssertEqual(group.wait(timeout: .now() + 60), .success)
        XCTAssertEqual(errors.value, [])
        let realm = try open()
        let all = Array(realm.objects(AsyncLogEntry.self))
        XCTAssertEqual(all.count, writers * perWriter, "nothing lost")
        XCTAssertEqual(
            Set(all.map(\.seen)), Set(0..<(writers * perWriter)), "each transaction saw every earlier commit")
        for w in 0..<writers {
            let mine = all.filter { $0.writer == w }.sorted { $0.seen < $1.seen }
            let asyncSeqs = mine.map(\.seq).filter { $0 % 4 != 0 }
            let syncSeqs = mine.map(\.seq).filter { $0 % 4 == 0 }
            XCTAssertEqual(asyncSeqs, asyncSeqs.sorted(), "writer \(w): async writes commit in queue order")
            XCTAssertEqual(syncSeqs, syncSeqs.sorted(), "writer \(w): sync writes commit in program order")
        }
    }
}
