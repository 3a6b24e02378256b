#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads a partition's lines through one reused 128 KiB buffer, so a query over many partitions allocates once.
///
/// A final line without a newline is a write torn by a crash; it is never handed over (see docs/STORE.md).
struct PartitionLineReader {
    /// Never read beyond what `read` filled, so it needs no zero fill.
    private var buffer = [UInt8](unsafeUninitializedCapacity: 1 << 17) { _, initialized in initialized = 1 << 17 }
    private var carried: [UInt8] = []
    /// Whether ``forEachLine(in:limit:_:)`` notes the identity of the file it read, as it was when opened and
    /// when read to the end (``identities``).
    var recordsIdentity = false
    /// The identities of the file read last, when recorded: equal when nothing changed it during the read.
    private(set) var identities: (opened: FileIdentity, finished: FileIdentity)?
    /// Called right after the file is opened (tests stand for a writer there).
    var afterOpening: (() -> Void)?
    /// Room for a derived file the read takes instead of a partition's lines (``StoredReadings``), reused from
    /// partition to partition: a month of heart rate's readings is 330 KB, and fresh memory of that size costs about
    /// 80 page faults every time.
    var derivedBytes: [UInt8] = []

    /// Lends the read buffer (128 KiB, not zero-filled) to another read between partitions: its pages are touched by
    /// the next read anyway, where fresh memory would cost page faults.
    mutating func withBuffer<Result>(_ body: (UnsafeMutableRawBufferPointer) throws -> Result) rethrows -> Result {
        try buffer.withUnsafeMutableBytes(body)
    }

    /// Calls `body` with every complete line of `file` (without its newline) and its number, counting from 1.
    ///
    /// - Parameters:
    ///   - file: The partition's path.
    ///   - limit: Read only this many bytes (the length before an interrupted batch), or nil for all.
    /// - Returns: False when the file does not exist.
    /// - Throws: ``StoreError/readFailed(_:reason:)``, or whatever `body` throws.
    @discardableResult
    mutating func forEachLine(in file: String, limit: Int? = nil,
                              _ body: (UnsafeBufferPointer<UInt8>, Int) throws -> Void) throws -> Bool {
        identities = nil
        guard let (fd, info) = try POSIXFile.openRegular(file, flags: O_RDONLY) else { return false }
        defer { close(fd) }
        afterOpening?()
        carried.removeAll(keepingCapacity: true)
        var remaining = limit ?? Int.max
        var lineNumber = 0
        while remaining > 0 {
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress!, min($0.count, remaining)) }
            if count < 0 {
                if errno == EINTR { continue }
                throw StoreError.readFailed(file, reason: POSIXFile.errorText())
            }
            if count == 0 { break }
            remaining -= count
            try buffer.withUnsafeBufferPointer { chunk in
                let base = chunk.baseAddress!
                var lineStart = 0
                while lineStart < count, let found = memchr(base + lineStart, 0x0A, count - lineStart) {
                    let index = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
                    lineNumber += 1
                    if carried.isEmpty {
                        try body(UnsafeBufferPointer(rebasing: chunk[lineStart..<index]), lineNumber)
                    } else {
                        carried.append(contentsOf: chunk[lineStart..<index])
                        try carried.withUnsafeBufferPointer { try body($0, lineNumber) }
                        carried.removeAll(keepingCapacity: true)
                    }
                    lineStart = index + 1
                }
                carried.append(contentsOf: chunk[lineStart..<count])
            }
        }
        if recordsIdentity {
            var finished = stat()
            if fstat(fd, &finished) == 0 { identities = (FileIdentity(info), FileIdentity(finished)) }
        }
        return true
    }
}
