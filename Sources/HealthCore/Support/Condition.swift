#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A lock with a condition variable (a pthread mutex and condition): what `Foundation.NSCondition` gave, without
/// Foundation.
///
/// Use it as a monitor: ``lock()``, check the state the condition stands for, ``wait()`` in a loop while it does not
/// hold (a wait may also end without a signal), change the state, ``broadcast()``, ``unlock()``.
final class Condition: @unchecked Sendable {
    private let mutex = Lock()
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    /// Creates an unlocked condition that no thread waits on.
    init() {
        condition.initialize(to: pthread_cond_t())
        let result = pthread_cond_init(condition, nil)
        precondition(result == 0, "pthread_cond_init failed: \(result)")
    }

    deinit {
        pthread_cond_destroy(condition)
        condition.deallocate()
    }

    /// Waits until no other thread holds the lock, then holds it.
    func lock() { mutex.lock() }

    /// Releases the lock, which this thread holds.
    func unlock() { mutex.unlock() }

    /// Releases the lock, sleeps until another thread signals (or, rarely, for no reason), and holds the lock again.
    /// Call it with the lock held, in a loop that checks the state.
    func wait() {
        let result = pthread_cond_wait(condition, mutex.mutex)
        precondition(result == 0, "pthread_cond_wait failed: \(result)")
    }

    /// Wakes one waiting thread, if any.
    func signal() {
        pthread_cond_signal(condition)
    }

    /// Wakes every waiting thread.
    func broadcast() {
        pthread_cond_broadcast(condition)
    }
}
