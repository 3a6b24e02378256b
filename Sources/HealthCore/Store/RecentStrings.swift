/// The last few texts one string field of a partition's lines held, each already checked, so that the next
/// line's field is recognised with one comparison instead of being scanned and checked again.
///
/// All texts live in one byte pool, so a comparison touches no reference counts.
struct RecentStrings {
    /// How many texts are kept; a field rarely has more distinct values than this within one partition.
    static let capacity = 4

    private var pool: [UInt8] = []
    private var spans: [(start: Int, length: Int, tag: Int)] = []
    private var next = 0

    /// The tag of the remembered text that starts at `p` and is followed by a quote, and the text's length.
    @inline(__always)
    func match(_ p: UnsafePointer<UInt8>, available: Int) -> (tag: Int, length: Int)? {
        pool.withUnsafeBufferPointer { pool in
            for span in spans where span.length < available && p[span.length] == 0x22 {
                if span.length == 0 || ByteComparison.equal(p, pool.baseAddress! + span.start, span.length) {
                    return (span.tag, span.length)
                }
            }
            return nil
        }
    }

    /// Remembers `text` with `tag`, replacing the oldest text when full.
    mutating func remember(_ text: UnsafeBufferPointer<UInt8>, tag: Int) {
        if spans.count == RecentStrings.capacity {
            // Start over rather than compact the pool: a field with more than a handful of values is rare.
            spans.removeAll(keepingCapacity: true)
            pool.removeAll(keepingCapacity: true)
        }
        spans.append((pool.count, text.count, tag))
        pool.append(contentsOf: text)
    }

    /// Whether `text` may be taken as it stands from a JSON string: valid UTF-8, with no escape and no control
    /// character (both of which the full reader decodes or refuses).
    static func isPlain(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        for byte in text where byte == 0x5C || byte < 0x20 { return false }
        return UTF8Validation.isValid(text)
    }
}
