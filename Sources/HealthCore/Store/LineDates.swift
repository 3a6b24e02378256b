/// A line's start and end read from its beginning without decoding the line: hkctl writes every sample line as
/// `{"uuid":"…","type":"…","start":"…","end":"…",…`, so a reader that wants only the samples overlapping an interval
/// can pass over the lines that plainly lie outside it. A line that begins any other way (written by hand or by
/// another program, an escape in its type or dates, a date in another form) gives nil, and the reader decodes it.
enum LineDates {
    private static let uuidKey = Array("{\"uuid\":\"".utf8)
    private static let typeKey = Array("\",\"type\":\"".utf8)
    private static let startKey = Array("\",\"start\":\"".utf8)
    private static let endKey = Array("\",\"end\":\"".utf8)

    /// The start and end `line` (without its newline) begins with, parsed as the line decoder parses them, or nil.
    static func peek(_ line: UnsafeBufferPointer<UInt8>) -> (start: Date, end: Date)? {
        var index = 0
        guard expect(uuidKey, in: line, at: &index) else { return nil }
        index += 36
        guard expect(typeKey, in: line, at: &index), skipPlain(in: line, at: &index),
              expect(startKey, in: line, at: &index) else { return nil }
        let startBegins = index
        guard skipPlain(in: line, at: &index) else { return nil }
        let startEnds = index
        guard expect(endKey, in: line, at: &index) else { return nil }
        let endBegins = index
        guard skipPlain(in: line, at: &index), index < line.count, line[index] == UInt8(ascii: "\""),
              let start = ISODate.parse(bytes: UnsafeBufferPointer(rebasing: line[startBegins..<startEnds])),
              let end = ISODate.parse(bytes: UnsafeBufferPointer(rebasing: line[endBegins..<index])) else { return nil }
        return (start, end)
    }

    /// Whether the line plainly holds a sample that does not overlap `interval` (by ``Sample/overlaps(_:)``'s rule):
    /// a reader of the samples overlapping it need not decode the line. False when the line cannot be peeked.
    static func liesOutside(_ line: UnsafeBufferPointer<UInt8>, _ interval: DateInterval) -> Bool {
        guard let (start, end) = peek(line) else { return false }
        return !QuantityReading.overlaps(start: start, end: end, interval)
    }

    /// Whether `key` lies at `index`; moves past it when it does.
    private static func expect(_ key: [UInt8], in line: UnsafeBufferPointer<UInt8>, at index: inout Int) -> Bool {
        guard index >= 0, line.count - index >= key.count else { return false }
        for offset in 0..<key.count where line[index + offset] != key[offset] { return false }
        index += key.count
        return true
    }

    /// Moves to the next quote, over bytes that need no escape; false at a backslash, a control character or the end.
    /// Eight bytes at a time while a word holds none of these (``JSONLineScanner/holds(_:in:)``,
    /// ``JSONLineScanner/holdsByteBelow0x20(_:)``), then byte by byte from the word that does.
    private static func skipPlain(in line: UnsafeBufferPointer<UInt8>, at index: inout Int) -> Bool {
        if let base = line.baseAddress, index >= 0 {
            let raw = UnsafeRawPointer(base)
            while index + 8 <= line.count {
                let word = raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                if JSONLineScanner.holds(UInt8(ascii: "\""), in: word) || JSONLineScanner.holds(UInt8(ascii: "\\"), in: word)
                    || JSONLineScanner.holdsByteBelow0x20(word) { break }
                index += 8
            }
        }
        while index < line.count {
            let byte = line[index]
            if byte == UInt8(ascii: "\"") { return true }
            if byte == UInt8(ascii: "\\") || byte < 0x20 { return false }
            index += 1
        }
        return false
    }
}
