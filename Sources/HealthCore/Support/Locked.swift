/// A value that several threads read and change, each access under a ``Lock``.
///
/// Holds only what one access does to the value: callers never keep the lock across file work.
final class Locked<Value>: @unchecked Sendable {
    private let lock = Lock()
    private var value: Value

    /// Holds `value`.
    init(_ value: Value) { self.value = value }

    /// Runs `body` on the value with the lock held, and returns what it returns.
    func withLock<T>(_ body: (inout Value) throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }

    /// The value now (a copy).
    var current: Value { withLock { $0 } }
}

extension Locked {
    /// The entry for `key` of a locked dictionary, read or changed under the lock.
    subscript<Key: Hashable, Entry>(key: Key) -> Entry? where Value == [Key: Entry] {
        get { withLock { $0[key] } }
        set { withLock { $0[key] = newValue } }
    }
}
