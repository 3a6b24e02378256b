#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch
import Testing
import TestKit
@testable import HealthCore

/// The pthread wrappers that replace `NSLock`, `NSCondition` and `Thread`.
struct ThreadingTests {
    /// A counter that threads share; only touched under its lock.
    private final class Counter: @unchecked Sendable {
        let lock = Lock()
        var value = 0
    }

    @Test func lockKeepsConcurrentIncrementsApart() {
        let counter = Counter()
        let threads = 4, increments = 50_000
        DispatchQueue.concurrentPerform(iterations: threads) { _ in
            for _ in 0..<increments {
                counter.lock.lock()
                counter.value += 1
                counter.lock.unlock()
            }
        }
        expectEqual(counter.value, threads * increments)
    }

    /// A one-slot queue between threads, like the import's pipeline.
    private final class Slot: @unchecked Sendable {
        let condition = Condition()
        var item: Int?
        var finished = false
        var received: [Int] = []
    }

    @Test func conditionHandsItemsOverInOrder() {
        let slot = Slot()
        let done = DispatchSemaphore(value: 0)
        let consumer = WorkerThread {
            while true {
                slot.condition.lock()
                while slot.item == nil && !slot.finished { slot.condition.wait() }
                guard let item = slot.item else {
                    slot.condition.unlock()
                    break
                }
                slot.item = nil
                slot.received.append(item)
                slot.condition.broadcast()
                slot.condition.unlock()
            }
            done.signal()
        }
        consumer.start()
        for item in 0..<1_000 {
            slot.condition.lock()
            while slot.item != nil { slot.condition.wait() }
            slot.item = item
            slot.condition.broadcast()
            slot.condition.unlock()
        }
        slot.condition.lock()
        while slot.item != nil { slot.condition.wait() }
        slot.finished = true
        slot.condition.broadcast()
        slot.condition.unlock()
        done.wait()
        expectEqual(slot.received, Array(0..<1_000))
    }

    @Test func conditionSignalWakesAWaiter() {
        let slot = Slot()
        let done = DispatchSemaphore(value: 0)
        let waiter = WorkerThread {
            slot.condition.lock()
            while !slot.finished { slot.condition.wait() }
            slot.received.append(1)
            slot.condition.unlock()
            done.signal()
        }
        waiter.start()
        slot.condition.lock()
        slot.finished = true
        slot.condition.signal()
        slot.condition.unlock()
        done.wait()
        expectEqual(slot.received, [1])
    }

    /// What the thread saw of itself.
    private final class Seen: @unchecked Sendable {
        var onOtherThread = false
        var depthReached = 0
    }

    /// Recurses `depth` times with a frame of at least 1 KB each (a stack buffer); returns the depth reached.
    @inline(never)
    private static func recurse(_ depth: Int) -> Int {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 1024) { frame in
            frame.initialize(repeating: UInt8(truncatingIfNeeded: depth))
            return depth == 0 ? 0 : 1 + recurse(depth - 1) + Int(frame[depth % 1024] &- frame[0])
        }
    }

    @Test func workerThreadRunsOnANewThreadWithTheStackAsked() {
        let seen = Seen()
        let done = DispatchSemaphore(value: 0)
        let caller = pthread_self()
        // About 24 MB of stack: three times the usual default of 8 MB, so it crashes unless the stack size is applied.
        let depth = 24 * 1024
        let thread = WorkerThread {
            seen.onOtherThread = pthread_equal(pthread_self(), caller) == 0
            seen.depthReached = ThreadingTests.recurse(depth)
            done.signal()
        }
        thread.stackSize = 64 << 20
        thread.start()
        done.wait()
        #expect(seen.onOtherThread)
        expectEqual(seen.depthReached, depth)
    }
}
