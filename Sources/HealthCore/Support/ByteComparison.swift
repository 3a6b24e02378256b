/// Compares short byte runs (the keys and repeated names of a store line) inline, a word at a time, which
/// beats a call to `memcmp` at these lengths.
enum ByteComparison {
    /// Whether the `length` bytes at `a` and `b` are equal.
    @inline(__always)
    static func equal(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, _ length: Int) -> Bool {
        let left = UnsafeRawPointer(a), right = UnsafeRawPointer(b)
        @inline(__always) func same<Word: FixedWidthInteger>(_ offset: Int, _: Word.Type) -> Bool {
            left.loadUnaligned(fromByteOffset: offset, as: Word.self) == right.loadUnaligned(fromByteOffset: offset, as: Word.self)
        }
        if length >= 8 {
            // Whole words, then the last eight bytes (which may overlap the previous word).
            var offset = 0
            while offset + 8 < length {
                if !same(offset, UInt64.self) { return false }
                offset += 8
            }
            return same(length - 8, UInt64.self)
        }
        if length >= 4 { return same(0, UInt32.self) && same(length - 4, UInt32.self) }
        for offset in 0..<length where a[offset] != b[offset] { return false }
        return true
    }

    /// Whether `a` and `b` hold the same bytes.
    static func same(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
        a.count == b.count && (a.isEmpty || equal(a.baseAddress!, b.baseAddress!, a.count))
    }

    /// Whether `text` holds exactly the bytes of `known`.
    static func same(_ text: UnsafeBufferPointer<UInt8>, _ known: StaticString) -> Bool {
        text.count == known.utf8CodeUnitCount && (text.isEmpty || equal(text.baseAddress!, known.utf8Start, text.count))
    }
}
