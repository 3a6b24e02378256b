#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Finds a whole line (one that ends in a newline) that starts with `{"uuid":"<uuid>"` for one of a few uuids, reading
/// a file through one fixed buffer: a save into a month of minute-level heart rate (12 MB) used to read the whole
/// partition into a fresh array, and the page faults of that array cost the add about 20 ms.
struct UUIDLineScanner {
    /// The texts looked for, all ``patternLength`` bytes long.
    let patterns: [[UInt8]]
    /// The bytes read at a time (at least one pattern and a newline).
    let chunkSize: Int

    /// `{"uuid":"` + 36 characters + `"`.
    static let patternLength = 46

    /// Looks for the lowercase texts of `uuids`, reading at most `chunkSize` bytes at a time (a file's size and one
    /// byte for the end is enough for a small file).
    init(_ uuids: [UUID], chunkSize: Int = 64 * 1024) {
        patterns = uuids.map { Array("{\"uuid\":\"\($0.lowercasedText)\"".utf8) }
        self.chunkSize = max(chunkSize, UUIDLineScanner.patternLength + 1)
    }

    /// The index in the uuids given of the first one that starts a whole line of what `read` hands out, or nil.
    ///
    /// - Parameter read: Fills as much of the buffer as it can; returns the count (0 at the end).
    func firstMatch(_ read: (UnsafeMutableRawBufferPointer) throws -> Int) rethrows -> Int? {
        let length = UUIDLineScanner.patternLength
        // Not cleared: only what `read` filled is looked at.
        var buffer = [UInt8](unsafeUninitializedCapacity: chunkSize) { _, initialized in initialized = chunkSize }
        var filled = 0
        // A line longer than the buffer is judged by its start, and counts once its newline is read.
        var skipping = false
        var skippedMatch: Int?
        while true {
            let count = try buffer.withUnsafeMutableBytes { try read(UnsafeMutableRawBufferPointer(rebasing: $0[filled...])) }
            // The end: what is left is a line without its newline (a torn write no reader sees).
            if count <= 0 { return nil }
            filled += count
            var start = 0
            var found: Int?
            buffer.withUnsafeBufferPointer { bytes in
                let base = bytes.baseAddress!
                while found == nil, start < filled, let newline = memchr(base + start, 0x0A, filled - start) {
                    let end = base.distance(to: newline.assumingMemoryBound(to: UInt8.self))
                    if skipping {
                        found = skippedMatch
                        skipping = false
                    } else if end - start >= length {
                        found = match(base + start)
                    }
                    start = end + 1
                }
                if found == nil, !skipping, start == 0, filled == bytes.count {
                    skippedMatch = match(base)
                    skipping = true
                }
            }
            if let found { return found }
            if skipping {
                filled = 0
            } else if start > 0 {
                buffer.withUnsafeMutableBytes { raw in
                    _ = memmove(raw.baseAddress!, raw.baseAddress! + start, filled - start)
                }
                filled -= start
            }
        }
    }

    /// The index of the pattern the ``patternLength`` bytes at `line` equal, or nil.
    private func match(_ line: UnsafePointer<UInt8>) -> Int? {
        patterns.firstIndex { pattern in
            pattern.withUnsafeBufferPointer { ByteComparison.equal(line, $0.baseAddress!, UUIDLineScanner.patternLength) }
        }
    }
}
