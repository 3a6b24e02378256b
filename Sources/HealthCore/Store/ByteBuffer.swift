import TextSupport

/// A growable byte buffer written through a raw pointer: the store's bulk line encoder appends to it byte by byte
/// without the uniqueness and bounds checks of an `Array`.
final class ByteBuffer {
    private(set) var base: UnsafeMutablePointer<UInt8>
    /// Bytes written.
    private(set) var count = 0
    private var capacity: Int

    /// Creates an empty buffer with room for `capacity` bytes before it grows.
    init(capacity: Int = 4096) {
        self.capacity = max(capacity, 64)
        base = UnsafeMutablePointer<UInt8>.allocate(capacity: self.capacity)
    }

    deinit { base.deallocate() }

    /// The bytes it can hold before it grows.
    var reserved: Int { capacity }

    /// The bytes written.
    var bytes: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: base, count: count) }

    /// Makes room for `extra` more bytes.
    @inline(__always)
    func reserve(_ extra: Int) {
        if count + extra > capacity { grow(to: count + extra) }
    }

    private func grow(to needed: Int) {
        var size = capacity * 2
        while size < needed { size *= 2 }
        let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: size)
        grown.update(from: base, count: count)
        base.deallocate()
        base = grown
        capacity = size
    }

    @inline(__always)
    func append(_ byte: UInt8) {
        if count == capacity { grow(to: count + 1) }
        base[count] = byte
        count += 1
    }

    /// Appends a byte after ``reserve(_:)`` made room for it.
    @inline(__always)
    func appendReserved(_ byte: UInt8) {
        base[count] = byte
        count += 1
    }

    /// Counts `written` bytes stored through `base + count` after ``reserve(_:)`` made room for them.
    @inline(__always)
    func advance(_ written: Int) {
        count += written
    }

    func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
        reserve(bytes.count)
        (base + count).update(from: source, count: bytes.count)
        count += bytes.count
    }

    @inline(__always)
    func append(_ literal: StaticString) {
        append(UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
    }

    func append(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { append($0) }
    }

    func append(_ text: String) {
        var text = text
        text.withUTF8 { append($0) }
    }

    /// Forgets the bytes written, keeping the memory.
    func removeAll() { count = 0 }
}

/// Emptied buffers kept for reuse, shared by the thread that fills them and the thread that writes them out.
///
/// It keeps at most `limit` bytes of buffers; others are freed when returned.
final class ByteBufferPool: @unchecked Sendable {
    private let lock = Lock()
    private var free: [ByteBuffer] = []
    private var kept = 0
    private let limit: Int
    /// The room a buffer made when the pool has none starts with.
    let firstCapacity: Int

    /// - Parameter firstCapacity: The room a new buffer starts with: about what one fill needs, so that it is not
    ///   copied as it grows (memory the buffer does not reach is reserved, not touched).
    init(limit: Int = 16 << 20, firstCapacity: Int = 1 << 16) {
        self.limit = limit
        self.firstCapacity = firstCapacity
    }

    /// An empty buffer: a returned one when there is one.
    func take() -> ByteBuffer? {
        lock.lock()
        defer { lock.unlock() }
        guard let buffer = free.popLast() else { return nil }
        kept -= buffer.reserved
        return buffer
    }

    /// Keeps `buffer` (emptied) for a later ``take()``.
    func put(_ buffer: ByteBuffer) {
        buffer.removeAll()
        lock.lock()
        defer { lock.unlock() }
        guard kept + buffer.reserved <= limit else { return }
        free.append(buffer)
        kept += buffer.reserved
    }
}

/// JSON strings are quoted straight into a buffer (``JSONBytes/appendQuoted(_:to:)``).
extension ByteBuffer: JSONTextSink {}
