#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The bytes of a payload of known size, read as the parser comes to them and given back once it is past them, so a
/// large file is never held whole: ``HAEParser`` reads it as one buffer of the file's size (one reserved mapping,
/// whose pages are filled by `read` ahead of the parser and released behind it).
///
/// The parser asks for more (``advance(to:)``) only at the start of a metric, a point or another array's element:
/// it keeps at least ``Sizes/ahead`` bytes read past that start. A longer element would read unfilled bytes (zeros,
/// which no JSON holds): the parse then fails, and the caller parses the whole payload instead
/// (``HealthAutoExportPayload/init(streaming:size:name:sizes:whole:)``), so a failure reported is always that of the
/// whole bytes, and so are its line and column.
final class HAEByteWindow {
    /// How much is read at a time, kept ahead of the parser, and kept behind it.
    struct Sizes {
        /// Read at a time.
        var chunk: Int
        /// At least this much is read past where the parser starts an element (unless the payload ends first).
        var ahead: Int
        /// Released behind the parser once this much lies behind it.
        var behind: Int

        /// 2 MB reads, 4 MB ahead (a workout's route of hours), released 2 MB at a time: a file holds at most about
        /// 8 MB of its bytes at once.
        static let standard = Sizes(chunk: 2 << 20, ahead: 4 << 20, behind: 2 << 20)
    }

    /// The payload's bytes as one buffer (only the part between ``released`` and ``filled`` is read).
    let bytes: UnsafeBufferPointer<UInt8>
    private let base: UnsafeMutableRawPointer
    private let mapped: Int
    /// The whole reservation (`base` is within it, aligned to a huge page when the window uses them).
    private let region: UnsafeMutableRawPointer
    private let regionSize: Int
    /// What is given back at a time: a page, or a huge page (2 MB) when the window is backed by them.
    private let releaseUnit: Int
    private let reader: ByteReader
    private let sizes: Sizes
    private let page: Int
    /// Bytes read so far.
    private(set) var filled = 0
    /// Bytes given back from the start.
    private(set) var released = 0
    /// Whether the stream ended where its size said (false: shorter or longer, and the parse is not to be trusted).
    private(set) var exact = true
    private var ended = false

    /// Reserves room for `size` bytes and reads the first of them; nil when the room cannot be reserved.
    init?(_ reader: ByteReader, size: Int, sizes: Sizes = .standard) throws {
        page = max(4096, sysconf(Int32(_SC_PAGESIZE)))
        mapped = max(page, (size + page - 1) / page * page)
        #if canImport(Glibc)
        let flags = MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE
        // Huge pages when what is released at a time is one: a 2 MB page is filled with one fault where 512 pages
        // take 512 (the window's share of the faults was a twentieth of a year's import). The buffer then starts
        // on a 2 MB boundary, and is given back in whole 2 MB pages.
        let huge = HAEByteWindow.hugePage
        let useHuge = page == 4096 && sizes.behind >= huge && mapped >= 2 * huge
        #else
        let flags = MAP_PRIVATE | MAP_ANON
        let huge = page
        let useHuge = false
        #endif
        regionSize = useHuge ? mapped + huge : mapped
        guard let memory = mmap(nil, regionSize, PROT_READ | PROT_WRITE, flags, -1, 0), memory != MAP_FAILED else { return nil }
        region = memory
        if useHuge {
            let address = UInt(bitPattern: memory)
            base = memory + Int((address + UInt(huge) - 1) / UInt(huge) * UInt(huge) - address)
            #if canImport(Glibc)
            _ = madvise(base, mapped, MADV_HUGEPAGE)
            #endif
            releaseUnit = huge
        } else {
            base = memory
            releaseUnit = page
        }
        bytes = UnsafeBufferPointer(start: base.assumingMemoryBound(to: UInt8.self), count: size)
        self.reader = reader
        self.sizes = Sizes(chunk: max(sizes.chunk, 1), ahead: max(sizes.ahead, 1), behind: max(sizes.behind, page))
        try fill(until: min(size, self.sizes.ahead + self.sizes.chunk))
    }

    deinit { munmap(region, regionSize) }

    /// The size of a huge page on x86-64 and arm64 Linux (4 KiB base pages).
    static let hugePage = 2 << 20

    /// Bytes from here on are kept, wherever the parser is: another thread reads them (``HAEPointsAhead``).
    var keptFrom = Int.max

    /// Called where the parser starts an element at `position`: reads ahead and releases what lies behind.
    @inline(__always)
    func advance(to position: Int) throws {
        if filled - position < sizes.ahead && !ended { try fill(until: position + sizes.ahead + sizes.chunk) }
        if position - released >= sizes.behind { release(below: min(position, keptFrom)) }
    }

    /// Reads the bytes up to `position` (or the end) now, for a stretch read ahead (``HAEPointsAhead``).
    func readAhead(until position: Int) throws {
        if filled < position && !ended { try fill(until: position) }
    }

    private func fill(until wanted: Int) throws {
        let limit = min(wanted, bytes.count)
        while filled < limit {
            let count = try reader.read(into: UnsafeMutableRawBufferPointer(start: base + filled, count: min(sizes.chunk, limit - filled)))
            if count == 0 {
                ended = true
                exact = false
                return
            }
            filled += count
        }
        if filled == bytes.count && !ended {
            // The stream must end here: a file that grew while it was read is parsed whole instead.
            var probe: UInt8 = 0
            let more = try withUnsafeMutableBytes(of: &probe) { try reader.read(into: $0) }
            ended = true
            if more != 0 { exact = false }
        }
    }

    private func release(below position: Int) {
        let end = position / releaseUnit * releaseUnit
        guard end > released else { return }
        #if canImport(Glibc)
        _ = madvise(base + released, end - released, MADV_DONTNEED)
        #endif
        released = end
    }
}
