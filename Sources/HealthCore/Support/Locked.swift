/// A value that several threads read and change, each access under a ``Lock``.
///
/// Holds only what one access does to the value: callers never keep the lock across file work. Copies share the
/// value (it lives in a box), as they would share a class instance.
///
/// A struct over a box that is not generic: a generic class has its metadata built at run time the first time each
/// of its instantiations is used (about 3 k instructions each, and a store holds six of them), where this struct,
/// specialised, needs none (see BENCHMARKS.md).
struct Locked<Value>: @unchecked Sendable {
    private let box: LockedBox

    /// Holds `value`.
    init(_ value: Value) {
        let storage = UnsafeMutablePointer<Value>.allocate(capacity: 1)
        storage.initialize(to: value)
        box = LockedBox(storage: UnsafeMutableRawPointer(storage)) { raw in
            let storage = raw.assumingMemoryBound(to: Value.self)
            _ = storage.move()
            storage.deallocate()
        }
    }

    /// Runs `body` on the value with the lock held, and returns what it returns.
    func withLock<T>(_ body: (inout Value) throws -> T) rethrows -> T {
        box.lock.lock()
        defer { box.lock.unlock() }
        return try body(&box.storage.assumingMemoryBound(to: Value.self).pointee)
    }

    /// The value now (a copy).
    var current: Value { withLock { $0 } }
}

extension Locked {
    /// The entry for `key` of a locked dictionary, read or changed under the lock.
    subscript<Key: Hashable, Entry>(key: Key) -> Entry? where Value == [Key: Entry] {
        get { withLock { $0[key] } }
        nonmutating set { withLock { $0[key] = newValue } }
    }
}

/// The lock and the storage of a ``Locked`` value, which `destroy` deinitialises and frees with the box.
private final class LockedBox {
    let lock = Lock()
    let storage: UnsafeMutableRawPointer
    private let destroy: (UnsafeMutableRawPointer) -> Void

    init(storage: UnsafeMutableRawPointer, destroy: @escaping (UnsafeMutableRawPointer) -> Void) {
        self.storage = storage
        self.destroy = destroy
    }

    deinit { destroy(storage) }
}
