#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What the last writers knew good of the partitions they appended to, kept in the store's lock file so the next
/// process need not read a whole partition back before it appends to it (a push into a month of minute-level heart
/// rate otherwise re-checks 7,000 lines).
///
/// A mark names a partition (its path in the store), the file it was (device and inode), its size and modification
/// time, and how many lines it held and the highest change number on them. It is trusted only while the file is
/// exactly that: the same device, inode, size and modification time (to the nanosecond the file system keeps). Any
/// other change (a line appended by another program, a repair, an edit, a copy) makes the writer check the whole
/// file again, as it did before marks. The marks are a cache: never synced, capped at ``limit`` (the partitions
/// written most recently), and ignored when unreadable.
///
/// Text, after the lock file's first 64 bytes (the highest change number and padding its readers trim):
/// `hkctl-marks 1` then one line per mark, `device inode size seconds nanoseconds lines highest path`, `sum <FNV-1a of
/// the lines before>`, an empty line, and spaces up to ``maximumBytes`` (so the lock file keeps one size).
struct ValidationMarks: Equatable {
    struct Mark: Equatable {
        var device: UInt64
        var inode: UInt64
        var size: Int
        var seconds: Int64
        var nanoseconds: Int64
        var lines: Int
        var highestSequence: UInt64
        var partition: String

        /// Whether `info` (the partition's `fstat`) shows the file as this mark saw it.
        func matches(_ info: stat) -> Bool {
            let modified = POSIXFile.modificationTime(info)
            return device == UInt64(info.st_dev) && inode == UInt64(info.st_ino) && size == Int(info.st_size)
                && seconds == modified.seconds && nanoseconds == modified.nanoseconds
        }

        var line: String {
            var bytes: [UInt8] = []
            append(to: &bytes)
            return String(decoding: bytes, as: UTF8.self)
        }

        /// Appends ``line``'s bytes to `bytes`, digit by digit (string interpolation of the seven numbers cost every
        /// write about 8 k instructions a mark, half a million for the 64 marks a busy store keeps).
        func append(to bytes: inout [UInt8]) {
            guard size >= 0, seconds >= 0, nanoseconds >= 0, lines >= 0 else {
                // Never written by a store (sizes, times and counts are not negative): spelled as before.
                bytes += Array(textLine.utf8)
                return
            }
            @inline(__always) func field(_ number: UInt64) {
                ValidationMarks.appendDecimal(number, to: &bytes)
                bytes.append(0x20)
            }
            field(device)
            field(inode)
            field(UInt64(size))
            field(UInt64(seconds))
            field(UInt64(nanoseconds))
            field(UInt64(lines))
            field(highestSequence)
            bytes += partition.utf8
        }

        /// The line as string interpolation spells it, for numbers that are not all unsigned.
        private var textLine: String {
            "\(device) \(inode) \(size) \(seconds) \(nanoseconds) \(lines) \(highestSequence) \(partition)"
        }

        init(device: UInt64, inode: UInt64, size: Int, seconds: Int64, nanoseconds: Int64, lines: Int, highestSequence: UInt64,
             partition: String) {
            self.device = device
            self.inode = inode
            self.size = size
            self.seconds = seconds
            self.nanoseconds = nanoseconds
            self.lines = lines
            self.highestSequence = highestSequence
            self.partition = partition
        }

        /// Reads a line written by ``line``; nil when it is not one.
        init?(line: ArraySlice<UInt8>) {
            guard let mark = line.withUnsafeBufferPointer({ Mark(line: $0) }) else { return nil }
            self = mark
        }

        /// Reads a line written by ``line``, byte by byte; nil when it is not one.
        init?(line: UnsafeBufferPointer<UInt8>) {
            guard let (numbers, pathStart) = Mark.fields(of: line) else { return nil }
            self.init(device: numbers.0, inode: numbers.1, size: Int(numbers.2), seconds: Int64(numbers.3),
                      nanoseconds: Int64(numbers.4), lines: Int(numbers.5), highestSequence: numbers.6,
                      partition: String(decoding: UnsafeBufferPointer(rebasing: line[pathStart...]), as: UTF8.self))
        }

        /// The seven numbers of a line written by ``line`` and where its partition path starts; nil when it is not one.
        static func fields(of line: UnsafeBufferPointer<UInt8>)
            -> (numbers: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64), pathStart: Int)? {
            var index = 0
            let count = line.count
            /// The number at `index` and the space after it.
            func number() -> UInt64? {
                var value: UInt64 = 0
                let first = index
                while index < count, line[index] &- 0x30 < 10 {
                    let (times, overflow) = value.multipliedReportingOverflow(by: 10)
                    guard !overflow else { return nil }
                    let (sum, carry) = times.addingReportingOverflow(UInt64(line[index] &- 0x30))
                    guard !carry else { return nil }
                    value = sum
                    index += 1
                }
                guard index > first, index < count, line[index] == 0x20 else { return nil }
                index += 1
                return value
            }
            guard let device = number(), let inode = number(), let size = number(), let seconds = number(),
                  let nanoseconds = number(), let lines = number(), let highest = number() else { return nil }
            guard index < count, size <= UInt64(Int.max), seconds <= UInt64(Int64.max),
                  nanoseconds <= UInt64(Int64.max), lines <= UInt64(Int.max) else { return nil }
            return ((device, inode, size, seconds, nanoseconds, lines, highest), index)
        }
    }

    /// A mark as the lock file holds it: its line (without the newline), where the partition path starts in it, and
    /// that path's FNV-1a hash. Marks stay lines: a write looks up one mark and replaces one, so parsing and spelling
    /// all 64 of a busy store (about 0.4 M instructions an add) is left to the one it needs.
    private struct Entry: Equatable {
        var line: [UInt8]
        var pathStart: Int
        var hash: UInt64

        func holds(_ path: UnsafeBufferPointer<UInt8>, hash wanted: UInt64) -> Bool {
            guard hash == wanted, line.count - pathStart == path.count else { return false }
            return line.withUnsafeBufferPointer { UnsafeBufferPointer(rebasing: $0[pathStart...]).elementsEqual(path) }
        }
    }

    /// Where the marks start in the lock file.
    static let offset = 64
    /// The first line of the marks.
    static let header = "hkctl-marks 1"
    /// How many partitions keep a mark (the most recently written).
    static let limit = 64
    /// The bytes the marks always take in the lock file, padded with spaces: a lock file that never changes size
    /// costs a write's `fsync` no extra metadata to commit.
    static let maximumBytes = 8 * 1024

    /// The marks' lines, the most recently written first.
    private var entries: [Entry] = []

    /// The marks, the most recently written first.
    var marks: [Mark] { entries.compactMap { entry in entry.line.withUnsafeBufferPointer { Mark(line: $0) } } }

    init() {}

    /// Reads the marks from the bytes after ``offset``, up to their checksum line; empty when they are not marks of
    /// this version, a line is not a mark, or the checksum does not match (a write of the marks torn by a crash).
    /// Bytes, not Strings: every write reads them.
    init(bytes: [UInt8]) {
        let header = Array(ValidationMarks.header.utf8)
        let sumPrefix = Array(ValidationMarks.sumPrefix.utf8)
        var found: [Entry] = []
        let complete = bytes.withUnsafeBufferPointer { buffer -> Bool in
            guard let base = buffer.baseAddress else { return false }
            var start = 0
            var sawHeader = false
            while start < buffer.count, let newline = memchr(base + start, 0x0A, buffer.count - start) {
                let end = base.distance(to: newline.assumingMemoryBound(to: UInt8.self))
                let line = UnsafeBufferPointer(rebasing: buffer[start..<end])
                defer { start = end + 1 }
                if !sawHeader {
                    guard line.elementsEqual(header) else { return false }
                    sawHeader = true
                    continue
                }
                if line.starts(with: sumPrefix) {
                    return ValidationMarks.checksum(buffer[0..<start]).elementsEqual(line[sumPrefix.count...])
                }
                guard let (_, pathStart) = Mark.fields(of: line) else { return false }
                guard found.count < ValidationMarks.limit else { continue }
                let path = UnsafeBufferPointer(rebasing: line[pathStart...])
                let hash = ValidationMarks.pathHash(path)
                // A partition named again keeps its first (most recent) mark.
                if !found.contains(where: { $0.holds(path, hash: hash) }) {
                    found.append(Entry(line: Array(line), pathStart: pathStart, hash: hash))
                }
            }
            return false
        }
        if complete { entries = found }
    }

    /// FNV-1a (64 bits) of a partition path's bytes.
    private static func pathHash(_ path: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var digest = FNV1a()
        digest.addBytes(path)
        return digest.value
    }

    /// Runs `body` on `partition`'s bytes and their ``pathHash(_:)``.
    private static func withPath<T>(_ partition: String, _ body: (UnsafeBufferPointer<UInt8>, UInt64) -> T) -> T {
        var text = partition
        return text.withUTF8 { body($0, pathHash($0)) }
    }

    /// What starts the line that ends the marks, followed by ``checksum(_:)`` of everything before it.
    static let sumPrefix = "sum "

    /// FNV-1a (64 bits) of `bytes`, in hexadecimal.
    static func checksum(_ bytes: ArraySlice<UInt8>) -> String {
        String(decoding: bytes.withUnsafeBufferPointer { checksum($0[...]) }, as: UTF8.self)
    }

    /// ``checksum(_:)`` as its bytes.
    static func checksum(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> [UInt8] {
        var digest = FNV1a()
        digest.addBytes(UnsafeBufferPointer(rebasing: bytes))
        return Array(String(digest.value, radix: 16).utf8)
    }

    /// The mark of `partition`, if any.
    func mark(for partition: String) -> Mark? {
        ValidationMarks.withPath(partition) { path, hash in
            entries.first { $0.holds(path, hash: hash) }.flatMap { entry in entry.line.withUnsafeBufferPointer { Mark(line: $0) } }
        }
    }

    /// Puts `mark` first, in place of the partition's earlier one, and drops the oldest beyond ``limit``.
    mutating func record(_ mark: Mark) {
        var line: [UInt8] = []
        mark.append(to: &line)
        let pathStart = line.count - mark.partition.utf8.count
        let hash = line.withUnsafeBufferPointer { ValidationMarks.pathHash(UnsafeBufferPointer(rebasing: $0[pathStart...])) }
        forget(mark.partition)
        entries.insert(Entry(line: line, pathStart: pathStart, hash: hash), at: 0)
        if entries.count > ValidationMarks.limit { entries.removeLast(entries.count - ValidationMarks.limit) }
    }

    /// Drops the mark of `partition`.
    mutating func forget(_ partition: String) {
        ValidationMarks.withPath(partition) { path, hash in entries.removeAll { $0.holds(path, hash: hash) } }
    }

    /// The marks as the lock file holds them after ``offset``: the header, a line per mark, the checksum line, an
    /// empty line, then spaces up to ``maximumBytes``.
    var bytes: [UInt8] {
        var bytes = Array((ValidationMarks.header + "\n").utf8)
        bytes.reserveCapacity(ValidationMarks.maximumBytes)
        for entry in entries {
            // Room for the checksum line (at most 4 + 16 + 1 bytes) and the empty line.
            guard bytes.count + entry.line.count + 1 + 22 <= ValidationMarks.maximumBytes else { break }
            bytes += entry.line
            bytes.append(0x0A)
        }
        let sum = bytes.withUnsafeBufferPointer { ValidationMarks.checksum($0[...]) }
        bytes += Array(ValidationMarks.sumPrefix.utf8) + sum + [0x0A, 0x0A]
        // An array of spaces, appended as one copy: a `repeatElement` is appended a byte at a time, which the
        // unoptimised debug build spends a quarter of an `add` on.
        bytes += [UInt8](repeating: 0x20, count: ValidationMarks.maximumBytes - bytes.count)
        return bytes
    }

    /// Appends the decimal digits of `number` to `bytes`.
    static func appendDecimal(_ number: UInt64, to bytes: inout [UInt8]) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var rest = number
            var start = digits.count
            repeat {
                start -= 1
                digits[start] = UInt8(truncatingIfNeeded: rest % 10) &+ 0x30
                rest /= 10
            } while rest > 0
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: digits[start...]))
        }
    }

    /// Whether a partition path can be kept in a mark line (no line break in it).
    static func canMark(_ partition: String) -> Bool { !partition.isEmpty && !partition.utf8.contains(0x0A) }
}
