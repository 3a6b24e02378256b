#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What a store instance remembers of a type's tombstone file between reads: the deletions in its first `length`
/// bytes, so that a reader going month by month (an export, a re-import's identity index) decodes each tombstone once
/// instead of once a month.
///
/// A tombstone file is only ever appended to, cut back to a length it had before a batch (never below what a reader
/// saw under the shared lock), or replaced whole (compaction, a repair: a new inode), so the same file (device and
/// inode) at least as long as `length` still begins with the bytes remembered, as ``ValidatedExtent`` relies on too.
/// A replaced file may get a freed inode number back, so the last line remembered must also still end at `length`:
/// every tombstone line has its own change number, and a rewrite that drops lines moves the ones after them.
struct RememberedDeletions {
    var device: UInt64
    var inode: UInt64
    /// Bytes up to the end of the last line read that counts (a final line that does not decode, a torn write, is
    /// read again next time: if lines follow it by then, it is damage).
    var length = 0
    /// Lines in those bytes.
    var lines = 0
    /// The last bytes before `length` (the end of the last line, at most ``tailBytes``).
    var tail: [UInt8] = []
    var deletions = JSONFileStore.Deletions()
    /// When it was last used, to forget the longest unused first.
    var lastUse = 0

    /// How many bytes of the end of the last line are remembered and compared.
    static let tailBytes = 256

    /// Whether the open file `fd` still has ``tail`` just before ``length``.
    func endsWithTail(_ fd: Int32) -> Bool {
        guard !tail.isEmpty else { return length == 0 }
        var bytes = [UInt8](repeating: 0, count: tail.count)
        let count = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress!, $0.count, off_t(length - tail.count)) }
        return count == tail.count && bytes == tail
    }
}

extension JSONFileStore {
    /// How many tombstones an instance remembers at most (about 60 bytes each), over all types; the types used
    /// longest ago are forgotten first, the one just read never. A re-import goes through the types of an export in
    /// the order its records come, often all of them each day, so every type with deletions is remembered while the
    /// store's tombstones fit.
    static let rememberedTombstones = 1_000_000

    /// The tombstones of a type, in file order; `limit` is the file length before an interrupted batch (see the
    /// journal).
    func tombstones(ofType identifier: String, limit: Int? = nil) throws -> [Tombstone] {
        var result: [Tombstone] = []
        try forEachTombstone(ofType: identifier, limit: limit) { result.append($0) }
        return result
    }

    /// Calls `body` with each tombstone of a type, in file order, reading the file 128 KiB at a time.
    ///
    /// Only newline-terminated lines count; a final line that does not decode is a torn write and is skipped, one
    /// followed by another line is damage (``StoreError/corrupt(_:line:reason:)``).
    func forEachTombstone(ofType identifier: String, limit: Int? = nil, _ body: (Tombstone) throws -> Void) throws {
        let file = try storeFile(JSONFileStore.tombstonePath(identifier))
        guard let (fd, info) = try POSIXFile.openRegular(file, flags: O_RDONLY) else { return }
        defer { close(fd) }
        _ = try readTombstoneLines(fd, file: file, from: 0, firstLine: 1, to: min(Int(info.st_size), limit ?? Int.max), body)
    }

    /// What the tombstones of a type hide, read under the caller's lock (`limits`: the lengths before an interrupted
    /// batch). The instance remembers it, and next time reads only the lines appended since (see
    /// ``RememberedDeletions``).
    func deletedUUIDs(ofType identifier: String, limits: [String: Int] = [:]) throws -> Deletions {
        let relative = JSONFileStore.tombstonePath(identifier)
        let file = try storeFile(relative)
        guard let (fd, info) = try POSIXFile.openRegular(file, flags: O_RDONLY) else {
            rememberedDeletions[relative] = nil
            return Deletions()
        }
        defer { close(fd) }
        let end = min(Int(info.st_size), limits[relative] ?? Int.max)
        let device = UInt64(info.st_dev), inode = UInt64(info.st_ino)
        // Taken out while it grows, so the table's copy does not make growing it copy every entry.
        var entry = rememberedDeletions.withLock { $0.removeValue(forKey: relative) }
        if let known = entry, known.device != device || known.inode != inode || known.length > end || !known.endsWithTail(fd) {
            entry = nil
        }
        var remembered = entry ?? RememberedDeletions(device: device, inode: inode)
        var keep = true
        if remembered.length < end {
            let before = remembered.length
            (remembered.length, remembered.lines) = try readTombstoneLines(
                fd, file: file, from: remembered.length, firstLine: remembered.lines + 1, to: end) { remembered.deletions.add($0) }
            if remembered.length > before {
                let count = min(RememberedDeletions.tailBytes, remembered.length)
                var tail = [UInt8](repeating: 0, count: count)
                let read = tail.withUnsafeMutableBytes { pread(fd, $0.baseAddress!, count, off_t(remembered.length - count)) }
                remembered.tail = tail
                keep = read == count  // else read from the start next time
            }
        }
        let deletions = remembered.deletions
        guard keep else { return deletions }
        rememberedDeletions.withLock { table in
            remembered.lastUse = (table.values.map(\.lastUse).max() ?? 0) + 1
            table[relative] = remembered
            var total = table.values.reduce(0) { $0 + $1.deletions.count }
            while total > JSONFileStore.rememberedTombstones,
                  let oldest = table.filter({ $0.key != relative }).min(by: { $0.value.lastUse < $1.value.lastUse }) {
                total -= oldest.value.deletions.count
                table[oldest.key] = nil
            }
        }
        return deletions
    }

    /// Reads the tombstone lines of the open file `fd` from byte `offset` (the start of line `firstLine`) up to byte
    /// `end`, and returns the length up to the end of the last line that counts and the number of lines in it.
    private func readTombstoneLines(_ fd: Int32, file: String, from offset: Int, firstLine: Int, to end: Int,
                                    _ body: (Tombstone) throws -> Void) throws -> (length: Int, lines: Int) {
        var buffer = [UInt8](repeating: 0, count: 1 << 17)
        var carried: [UInt8] = []
        var position = offset, number = firstLine - 1
        var good = (length: offset, lines: firstLine - 1)
        var pending: Int?  // the number of a line that did not decode
        var decoded = 0
        defer { readCounts.withLock { $0.tombstoneLinesDecoded += decoded } }
        func take(_ line: UnsafeBufferPointer<UInt8>, endingAt lineEnd: Int) throws {
            number += 1
            if let pending { throw StoreError.corrupt(file, line: pending, reason: "not a tombstone") }
            if !line.isEmpty {
                decoded += 1
                guard let tombstone = JSONFileStore.decodeTombstone(line) else {
                    pending = number
                    return
                }
                try body(tombstone)
            }
            good = (lineEnd, number)
        }
        while position < end {
            let wanted = min(buffer.count, end - position)
            let count = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress!, wanted, off_t(position)) }
            if count < 0 {
                if errno == EINTR { continue }
                throw StoreError.readFailed(file, reason: POSIXFile.errorText())
            }
            if count == 0 { break }
            try buffer.withUnsafeBufferPointer { chunk in
                let base = chunk.baseAddress!
                var start = 0
                while start < count, let found = memchr(base + start, 0x0A, count - start) {
                    let index = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
                    let lineEnd = position + index + 1
                    if carried.isEmpty {
                        try take(UnsafeBufferPointer(rebasing: chunk[start..<index]), endingAt: lineEnd)
                    } else {
                        carried.append(contentsOf: chunk[start..<index])
                        try carried.withUnsafeBufferPointer { try take($0, endingAt: lineEnd) }
                        carried.removeAll(keepingCapacity: true)
                    }
                    start = index + 1
                }
                carried.append(contentsOf: chunk[start..<count])
            }
            position += count
        }
        return good
    }
}
