/// A line's change number read from its end without decoding the line: hkctl writes `seq` as the last key of every
/// line (`…,"seq":123}`), so a reader that wants only the lines after an anchor, or below a page's highest number, can
/// pass over the rest. A line that ends any other way (written by hand or by another program, or before change numbers
/// existed) gives nil, and the reader decodes it as before.
enum LineChangeNumber {
    /// The key and the bytes around it that end every line hkctl writes.
    private static let key = Array(",\"seq\":".utf8)

    /// The change number `line` (without its newline) ends with, or nil when it does not end plainly in one.
    static func peek(_ line: UnsafeBufferPointer<UInt8>) -> UInt64? {
        guard let last = line.last, last == UInt8(ascii: "}") else { return nil }
        var index = line.count - 2
        var value: UInt64 = 0
        var scale: UInt64 = 1
        var digits = 0
        while index >= 0, line[index] >= UInt8(ascii: "0"), line[index] <= UInt8(ascii: "9") {
            // At most 16 digits: the largest change number has 16 (2^53 - 1).
            guard digits < 16 else { return nil }
            value += UInt64(line[index] - UInt8(ascii: "0")) * scale
            scale *= 10
            digits += 1
            index -= 1
        }
        // A leading zero is not how a number is written (but "0" alone is).
        guard digits > 0, value <= ChangeNumbers.maximum, digits == 1 || line[index + 1] != UInt8(ascii: "0") else { return nil }
        let keyStart = index - key.count + 1
        guard keyStart >= 0 else { return nil }
        for offset in 0..<key.count where line[keyStart + offset] != key[offset] { return nil }
        return value
    }
}
