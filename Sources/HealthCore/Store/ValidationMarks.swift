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
            guard let device = number(in: line, at: &index), let inode = number(in: line, at: &index),
                  let size = number(in: line, at: &index), let seconds = number(in: line, at: &index),
                  let nanoseconds = number(in: line, at: &index), let lines = number(in: line, at: &index),
                  let highest = number(in: line, at: &index) else { return nil }
            guard index < line.count, size <= UInt64(Int.max), seconds <= UInt64(Int64.max),
                  nanoseconds <= UInt64(Int64.max), lines <= UInt64(Int.max) else { return nil }
            return ((device, inode, size, seconds, nanoseconds, lines, highest), index)
        }

        /// The number at `index` in `line` and the space after it, moving `index` past both. Up to 19 digits cannot
        /// pass `UInt64.max`, so only longer runs (20 digits, or leading zeros) are summed again with overflow checks:
        /// every write reads the marks, 64 lines of seven numbers.
        @inline(__always)
        private static func number(in line: UnsafeBufferPointer<UInt8>, at index: inout Int) -> UInt64? {
            guard let base = line.baseAddress else { return nil }
            let count = line.count
            let first = index
            var position = index
            var value: UInt64 = 0
            while position < count {
                let digit = base[position] &- 0x30
                if digit >= 10 { break }
                value = value &* 10 &+ UInt64(digit)
                position &+= 1
            }
            guard position > first, position < count, base[position] == 0x20 else { return nil }
            if position - first > 19 {
                value = 0
                for place in first..<position {
                    let (times, overflow) = value.multipliedReportingOverflow(by: 10)
                    guard !overflow else { return nil }
                    let (sum, carry) = times.addingReportingOverflow(UInt64(base[place] &- 0x30))
                    guard !carry else { return nil }
                    value = sum
                }
            }
            index = position &+ 1
            return value
        }
    }

    /// A mark as the lock file holds it: where its line (without the newline) lies in ``text``. Marks stay lines until
    /// one is needed: a write looks up one mark and replaces one, so parsing all 64 of a busy store (about 0.15 M
    /// instructions an add, more than the checksum) is left to the one it needs.
    private struct Entry {
        var start: Int
        var end: Int
    }

    /// The lines the entries lie in: the bytes they were read from, and the lines recorded since after them (one
    /// buffer, so reading 64 marks makes no array apiece).
    private var text: [UInt8] = []
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

    /// The marks, the most recently written first: each partition's first, lines that are not marks left out.
    var marks: [Mark] {
        var named = Set<String>()
        return entries.compactMap { entry in
            guard let mark = withLine(entry, { Mark(line: $0) }), named.insert(mark.partition).inserted else { return nil }
            return mark
        }
    }

    init() {}

    /// Reads the marks from the bytes after ``offset``, up to their checksum line; empty when they are not marks of
    /// this version or the checksum does not match (a write of the marks torn by a crash). Only the lines' places
    /// are taken here: a line is read as a mark when it is looked up (``mark(for:)``), and one that is not a mark
    /// (which no writer writes) counts as none. Bytes, not Strings: every write reads them.
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
                if found.count < ValidationMarks.limit { found.append(Entry(start: start, end: end)) }
            }
            return false
        }
        if complete {
            text = bytes
            entries = found
        }
    }

    /// Two sets of marks are equal when they hold the same lines in the same order.
    static func == (left: ValidationMarks, right: ValidationMarks) -> Bool {
        left.entries.count == right.entries.count && zip(left.entries, right.entries).allSatisfy { pair in
            left.withLine(pair.0) { one in right.withLine(pair.1) { other in one.elementsEqual(other) } }
        }
    }

    /// Runs `body` on `entry`'s line.
    private func withLine<T>(_ entry: Entry, _ body: (UnsafeBufferPointer<UInt8>) -> T) -> T {
        text.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[entry.start..<entry.end])) }
    }

    /// Whether `entry` is a line for the partition `path`: the line ends with the path, and the path starts right
    /// after the line's seventh space (a path may hold spaces itself).
    private func holds(_ entry: Entry, _ path: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let wanted = path.baseAddress, entry.end - entry.start > path.count else { return false }
        return withLine(entry) { line in
            let from = line.count - path.count
            guard line[from - 1] == 0x20, memcmp(line.baseAddress! + from, wanted, path.count) == 0 else { return false }
            return ValidationMarks.pathStart(of: line) == from
        }
    }

    /// Where the partition path starts in a mark's line: after the space that follows each of its seven numbers.
    private static func pathStart(of line: UnsafeBufferPointer<UInt8>) -> Int? {
        guard let base = line.baseAddress else { return nil }
        var index = 0
        for _ in 0..<7 {
            guard index < line.count, let space = memchr(base + index, 0x20, line.count - index) else { return nil }
            index = base.distance(to: space.assumingMemoryBound(to: UInt8.self)) + 1
        }
        return index
    }

    /// Runs `body` on `partition`'s bytes.
    private static func withPath<T>(_ partition: String, _ body: (UnsafeBufferPointer<UInt8>) -> T) -> T {
        var text = partition
        return text.withUTF8 { body($0) }
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
        ValidationMarks.withPath(partition) { path in
            entries.first { holds($0, path) }.flatMap { entry in withLine(entry) { Mark(line: $0) } }
        }
    }

    /// Puts `mark` first, in place of the partition's earlier one, and drops the oldest beyond ``limit``.
    mutating func record(_ mark: Mark) {
        forget(mark.partition)
        let start = text.count
        mark.append(to: &text)
        entries.insert(Entry(start: start, end: text.count), at: 0)
        if entries.count > ValidationMarks.limit { entries.removeLast(entries.count - ValidationMarks.limit) }
        // A long hold of the lock (an import records marks after every batch) keeps ``text`` to the lines in use.
        if text.count > 4 * ValidationMarks.maximumBytes { keepOnlyEntriesText() }
    }

    /// Rewrites ``text`` to hold the entries' lines alone.
    private mutating func keepOnlyEntriesText() {
        var kept: [UInt8] = []
        var moved: [Entry] = []
        text.withUnsafeBufferPointer { text in
            for entry in entries {
                let start = kept.count
                kept.append(contentsOf: UnsafeBufferPointer(rebasing: text[entry.start..<entry.end]))
                moved.append(Entry(start: start, end: kept.count))
            }
        }
        text = kept
        entries = moved
    }

    /// Drops the mark of `partition`.
    mutating func forget(_ partition: String) {
        let kept = ValidationMarks.withPath(partition) { path in entries.filter { !holds($0, path) } }
        entries = kept
    }

    /// The marks as the lock file holds them after ``offset``: the header, a line per mark, the checksum line, an
    /// empty line, then spaces up to ``maximumBytes``.
    var bytes: [UInt8] {
        var bytes = Array((ValidationMarks.header + "\n").utf8)
        bytes.reserveCapacity(ValidationMarks.maximumBytes)
        text.withUnsafeBufferPointer { text in
            for entry in entries {
                // Room for the checksum line (at most 4 + 16 + 1 bytes) and the empty line.
                guard bytes.count + (entry.end - entry.start) + 1 + 22 <= ValidationMarks.maximumBytes else { break }
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: text[entry.start..<entry.end]))
                bytes.append(0x0A)
            }
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
