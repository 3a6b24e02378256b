#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A mutual-exclusion lock on a pthread mutex: what `Foundation.NSLock` gave, without Foundation.
///
/// Not recursive: a thread that locks it twice without unlocking deadlocks. Every ``lock()`` must be matched by an
/// ``unlock()`` on the same thread.
final class Lock: @unchecked Sendable {
    /// The mutex itself, for ``Condition``'s waits.
    let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)

    /// Creates an unlocked lock.
    init() {
        mutex.initialize(to: pthread_mutex_t())
        let result = pthread_mutex_init(mutex, nil)
        precondition(result == 0, "pthread_mutex_init failed: \(result)")
    }

    deinit {
        pthread_mutex_destroy(mutex)
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
}
