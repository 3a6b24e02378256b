#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The bar a month's lines must reach to be among the newest `limit` samples, found from the lines at the month's
/// end before the month is read (``JSONFileStore/latestSamples(ofType:overlapping:limit:)``).
///
/// A month's lines are appended in the order they were saved, so its newest samples are almost always its last
/// lines. The bar is the `limit`-th newest start and end among the candidates already kept (from newer months) and
/// the samples the last lines hold: `limit` samples that the read will take start at or after it, so a line that
/// starts before it cannot be in the answer. Only the end of the file is read (16 KiB, then 128 KiB, into the line reader's buffer); when those
/// lines do not hold enough samples there is no bar, and every line is read as before.
enum LatestBar {
    /// The bytes of the file's end read first.
    static let firstWindow = 16 << 10
    /// Above this many samples, no bar is looked for: the end of a month rarely holds them.
    static let largestLimit = 4096
    /// A file smaller than this many bytes a sample asked for gets no bar: it holds too few lines besides those the
    /// answer takes (a line is about 300 bytes) for the bar to spare more than reading its end costs.
    static let bytesPerSample = 1024

    /// The bar for `file` (its first `length` bytes, or all of it when nil), or nil when there is none.
    ///
    /// - Parameters:
    ///   - buffer: Where the file's end is read: its last 16 KiB, then as much as the buffer holds.
    ///   - kept: The start and end of every candidate already kept.
    ///   - accept: A line's start and end when it is a sample the answer may hold (exactly as the read will judge
    ///     it), nil otherwise.
    static func find(in file: String, length: Int?, limit: Int, buffer: UnsafeMutableRawBufferPointer,
                     kept: [(start: Date, end: Date)],
                     accept: (UnsafeBufferPointer<UInt8>) -> (start: Date, end: Date)?) throws -> (start: Date, end: Date)? {
        guard limit > 0, limit <= largestLimit, let (fd, info) = try POSIXFile.openRegular(file, flags: O_RDONLY) else {
            return nil
        }
        defer { close(fd) }
        let size = min(Int(info.st_size), length ?? Int.max)
        guard size >= limit * bytesPerSample else { return nil }
        for window in [min(firstWindow, buffer.count), buffer.count] {
            let from = max(0, size - window)
            let wanted = size - from
            var done = 0
            while done < wanted {
                let count = pread(fd, buffer.baseAddress! + done, wanted - done, off_t(from + done))
                if count < 0 && errno == EINTR { continue }
                if count < 0 { throw StoreError.readFailed(file, reason: POSIXFile.errorText()) }
                if count == 0 { return nil }  // shorter than it was a moment ago: no bar
                done += count
            }
            var times = kept
            let bytes = UnsafeBufferPointer(start: buffer.baseAddress!.assumingMemoryBound(to: UInt8.self), count: wanted)
            forEachLineBackward(in: bytes, whole: from == 0) { line in
                if let found = accept(line) { times.append(found) }
                return times.count < limit
            }
            if times.count >= limit {
                times.sort { $0.start != $1.start ? $0.start > $1.start : $0.end > $1.end }
                return times[limit - 1]
            }
            if from == 0 { return nil }
        }
        return nil
    }

    /// Calls `body` with the complete lines of `buffer` (each without its newline), the last first, while it returns
    /// true. Bytes after the last newline (a torn write) are not a line; unless `whole`, neither are the bytes before
    /// the first newline (the end of a line that began before the buffer).
    static func forEachLineBackward(in buffer: UnsafeBufferPointer<UInt8>, whole: Bool,
                                    _ body: (UnsafeBufferPointer<UInt8>) -> Bool) {
        var end = buffer.count
        while end > 0 && buffer[end - 1] != 0x0A { end -= 1 }
        guard end > 0 else { return }
        end -= 1  // the newline of the last complete line
        while true {
            var start = end
            while start > 0 && buffer[start - 1] != 0x0A { start -= 1 }
            if start == 0 && !whole { return }
            if !body(UnsafeBufferPointer(rebasing: buffer[start..<end])) { return }
            if start == 0 { return }
            end = start - 1
        }
    }
}
