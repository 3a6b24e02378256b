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
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    /// Creates an unlocked condition that no thread waits on.
    init() {
        mutex.initialize(to: pthread_mutex_t())
        condition.initialize(to: pthread_cond_t())
        var result = pthread_mutex_init(mutex, nil)
        precondition(result == 0, "pthread_mutex_init failed: \(result)")
        result = pthread_cond_init(condition, nil)
        precondition(result == 0, "pthread_cond_init failed: \(result)")
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    /// Waits until no other thread holds the lock, then holds it.
    func lock() {
        let result = pthread_mutex_lock(mutex)
        precondition(result == 0, "pthread_mutex_lock failed: \(result)")
    }

    /// Releases the lock, which this thread holds.
    func unlock() {
        let result = pthread_mutex_unlock(mutex)
        precondition(result == 0, "pthread_mutex_unlock failed: \(result)")
    }

    /// Releases the lock, sleeps until another thread signals (or, rarely, for no reason), and holds the lock again.
    /// Call it with the lock held, in a loop that checks the state.
    func wait() {
        let result = pthread_cond_wait(condition, mutex)
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
