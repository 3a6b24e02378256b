#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A streaming, non-validating XML tag scanner over raw bytes, built for Apple Health exports.
///
/// It reads its input through a reusable buffer (1 MiB by default, grown only for a single construct that does not
/// fit), so memory stays flat whatever the file size. It reports start, end and empty-element tags with their
/// attributes as spans of that buffer and skips everything else: the XML declaration, the internal DTD (never read,
/// so the malformed iOS 16 DTD does no harm), comments, CDATA and text, including stray control characters such
/// as `\u{0B}`. Attribute names run up to `=`, so the spaces in iOS 8 metadata attribute names are tolerated.
///
/// A malformed tag is reported as a problem with its line number and scanning resumes at the next `<`; it never
/// stops the scan. Errors thrown by the input or by the handler end the scan. A start or empty-element tag whose
/// bytes are not well-formed UTF-8 is reported with ``XMLTag/hasInvalidUTF8`` set, for the reader to refuse what it
/// describes (the bytes are checked only when one of them is not ASCII).
final class XMLByteScanner {
    /// Something skipped because it was not well-formed.
    struct Problem: Equatable {
        /// The 1-based line where it starts.
        var line: Int
        /// What was wrong, as a sentence fragment (`the element is not closed`).
        var message: String
    }

    private let reader: ByteReader
    private let maximumBufferSize: Int
    private var storage: UnsafeMutableRawBufferPointer
    private var bytes: UnsafeMutablePointer<UInt8>
    /// Start of the unconsumed bytes.
    private var position = 0
    /// End of the valid bytes.
    private var end = 0
    private var atEOF = false
    private var line = 1
    private var linesCountedTo = 0
    private var attributes: UnsafeMutablePointer<XMLAttribute>
    private var attributeCapacity = 32
    /// Whether the document type declaration says the file was written by hkctl (its export's DTD comment, `HealthKit
    /// Export Version: 14 (written by hkctl)`).
    private(set) var writtenByHkctl = false
    /// What hkctl's export writes in its DTD's comment.
    private static let hkctlMark = Array("(written by hkctl)".utf8)

    /// Creates a scanner.
    ///
    /// - Parameters:
    ///   - reader: The XML bytes.
    ///   - bufferSize: The read buffer's size: 128 KiB by default, small enough that the bytes a read copies in are
    ///     still in the core's cache when the scan reaches them. Against 1 MiB: level on a quiet machine, 3–7 % less
    ///     CPU while other work shares the cache (BENCHMARKS.md, session 38). It grows for a construct longer than
    ///     itself.
    ///   - maximumBufferSize: The largest single construct (tag, comment, DTD) accepted before it is skipped.
    init(reader: ByteReader, bufferSize: Int = 128 << 10, maximumBufferSize: Int = 64 << 20) {
        self.reader = reader
        self.maximumBufferSize = max(bufferSize, maximumBufferSize)
        storage = UnsafeMutableRawBufferPointer.allocate(byteCount: bufferSize, alignment: 16)
        bytes = storage.baseAddress!.assumingMemoryBound(to: UInt8.self)
        attributes = UnsafeMutablePointer<XMLAttribute>.allocate(capacity: attributeCapacity)
    }

    deinit {
        storage.deallocate()
        attributes.deallocate()
    }

    /// The line the scanner has reached.
    var currentLine: Int {
        countLines(to: position)
        return line
    }

    private enum Step {
        /// Consumed up to this offset.
        case done(Int)
        /// The construct runs past the buffered bytes.
        case needMore
        /// Not well-formed; resume at this offset.
        case malformed(String, resume: Int)
    }

    /// Scans to the end of the input.
    ///
    /// - Parameters:
    ///   - onTag: Called for each tag; the tag's spans are valid only during the call.
    ///   - onProblem: Called for each malformed construct skipped.
    /// - Throws: What the reader or `onTag` throws.
    func scan(onTag: (XMLTag) throws -> Void, onProblem: (Problem) -> Void) throws {
        while true {
            // Text: skip to the next '<'.
            if position >= end {
                if try !refill() { return }
                continue
            }
            let start = bytes + position
            guard let found = memchr(start, Int32(UInt8(ascii: "<")), end - position) else {
                position = end
                continue
            }
            position += UnsafeMutableRawPointer(found).assumingMemoryBound(to: UInt8.self) - start
            let step = try markup(at: position, onTag: onTag)
            switch step {
            case let .done(next):
                position = next
            case let .malformed(message, resume):
                onProblem(Problem(line: lineAt(position), message: message))
                position = resume
            case .needMore:
                if end - position >= maximumBufferSize {
                    onProblem(Problem(line: lineAt(position), message: "the markup is longer than \(maximumBufferSize >> 20) MiB and was skipped"))
                    position += 1
                    continue
                }
                let tagLine = lineAt(position)
                if try !refill() {
                    onProblem(Problem(line: tagLine, message: "the file ends inside this markup (it is truncated)"))
                    position = end
                    return
                }
            }
        }
    }

    // MARK: - Buffer

    /// Moves the unconsumed bytes to the front (growing the buffer when they fill it) and reads more.
    /// Returns false at the end of the input when nothing new could be read.
    private func refill() throws -> Bool {
        if atEOF { return false }
        countLines(to: position)
        let pending = end - position
        if position > 0 {
            if pending > 0 { memmove(bytes, bytes + position, pending) }
            position = 0
            linesCountedTo = 0
            end = pending
        }
        if end == storage.count {
            let grown = UnsafeMutableRawBufferPointer.allocate(byteCount: min(storage.count * 2, maximumBufferSize), alignment: 16)
            grown.copyMemory(from: UnsafeRawBufferPointer(rebasing: storage[0..<end]))
            storage.deallocate()
            storage = grown
            bytes = storage.baseAddress!.assumingMemoryBound(to: UInt8.self)
        }
        let count = try reader.read(into: UnsafeMutableRawBufferPointer(rebasing: storage[end...]))
        if count == 0 {
            atEOF = true
            return false
        }
        end += count
        return true
    }

    private func countLines(to offset: Int) {
        guard offset > linesCountedTo else { return }
        var index = linesCountedTo
        while index < offset, let found = memchr(bytes + index, 0x0A, offset - index) {
            line += 1
            index = UnsafeMutableRawPointer(found).assumingMemoryBound(to: UInt8.self) - bytes + 1
        }
        linesCountedTo = offset
    }

    private func lineAt(_ offset: Int) -> Int {
        countLines(to: offset)
        return line
    }

    // MARK: - Markup

    @inline(__always)
    private func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x0A || byte == 0x09 || byte == 0x0D }

    /// Handles the markup starting with the '<' at `start`.
    private func markup(at start: Int, onTag: (XMLTag) throws -> Void) throws -> Step {
        guard start + 1 < end else { return .needMore }
        let next = bytes[start + 1]
        if next == UInt8(ascii: "?") { return skip(from: start + 2, past: "?>") }
        if next == UInt8(ascii: "!") { return declaration(at: start) }
        if next == UInt8(ascii: "/") { return try closingTag(at: start, onTag: onTag) }
        return try openingTag(at: start, onTag: onTag)
    }

    /// Skips up to and including `terminator`.
    private func skip(from offset: Int, past terminator: StaticString) -> Step {
        let pattern = terminator.utf8Start
        let length = terminator.utf8CodeUnitCount
        var index = offset
        while index + length <= end {
            guard let found = memchr(bytes + index, Int32(pattern[0]), end - index) else { return .needMore }
            index = UnsafeMutableRawPointer(found).assumingMemoryBound(to: UInt8.self) - bytes
            if index + length > end { return .needMore }
            if memcmp(bytes + index, pattern, length) == 0 { return .done(index + length) }
            index += 1
        }
        return .needMore
    }

    private func hasPrefix(_ literal: StaticString, at offset: Int) -> Bool? {
        let length = literal.utf8CodeUnitCount
        if offset + length > end { return nil }
        return memcmp(bytes + offset, literal.utf8Start, length) == 0
    }

    /// `<!-- -->`, `<![CDATA[ ]]>`, `<!DOCTYPE ... [ ... ]>` and other `<! >` declarations.
    private func declaration(at start: Int) -> Step {
        guard let isComment = hasPrefix("<!--", at: start) else { return .needMore }
        if isComment { return skip(from: start + 4, past: "-->") }
        guard let isCDATA = hasPrefix("<![CDATA[", at: start) else { return .needMore }
        if isCDATA { return skip(from: start + 9, past: "]]>") }
        guard let isDoctype = hasPrefix("<!DOCTYPE", at: start) else { return .needMore }
        if !isDoctype { return skip(from: start + 2, past: ">") }
        // The internal subset is skipped without reading it: find '[' or '>', then a ']' followed by '>'.
        var index = start + 9
        while index < end, bytes[index] != UInt8(ascii: "["), bytes[index] != UInt8(ascii: ">") { index += 1 }
        guard index < end else { return .needMore }
        if bytes[index] == UInt8(ascii: ">") { return .done(index + 1) }
        index += 1
        while true {
            guard index < end, let found = memchr(bytes + index, Int32(UInt8(ascii: "]")), end - index) else { return .needMore }
            index = UnsafeMutableRawPointer(found).assumingMemoryBound(to: UInt8.self) - bytes + 1
            var after = index
            while after < end, isSpace(bytes[after]) { after += 1 }
            guard after < end else { return .needMore }
            if bytes[after] == UInt8(ascii: ">") {
                writtenByHkctl = JSONFileStore.find(XMLByteScanner.hkctlMark, in: UnsafeBufferPointer(start: bytes + start, count: after + 1 - start))
                return .done(after + 1)
            }
        }
    }

    private func closingTag(at start: Int, onTag: (XMLTag) throws -> Void) throws -> Step {
        var index = start + 2
        let nameStart = index
        while index < end, !isSpace(bytes[index]), bytes[index] != UInt8(ascii: ">"), bytes[index] != UInt8(ascii: "<") {
            index += 1
        }
        let nameEnd = index
        while index < end, isSpace(bytes[index]) { index += 1 }
        guard index < end else { return .needMore }
        guard bytes[index] == UInt8(ascii: ">"), nameEnd > nameStart else {
            return .malformed("the closing tag is malformed", resume: start + 1)
        }
        let tag = XMLTag(kind: .close, name: UnsafeBufferPointer(start: bytes + nameStart, count: nameEnd - nameStart),
                         attributes: UnsafeBufferPointer(start: attributes, count: 0), line: lineAt(start))
        try onTag(tag)
        return .done(index + 1)
    }

    private func openingTag(at start: Int, onTag: (XMLTag) throws -> Void) throws -> Step {
        var index = start + 1
        let nameStart = index
        // Every byte of the tag's name ORed together, then of each attribute's name and value (and some bytes after
        // them, which at worst checks a valid stretch): only a stretch with a byte of 0x80 or more can be ill-formed
        // UTF-8, so only such a stretch is checked. Every other byte of a tag is an ASCII space, '=', quote, '/' or
        // '>', which no sequence can span: checking each stretch finds what checking the whole tag finds.
        var seen: UInt64 = 0
        while index < end {
            let byte = bytes[index]
            if isSpace(byte) || byte == UInt8(ascii: ">") || byte == UInt8(ascii: "/") || byte == UInt8(ascii: "<") { break }
            seen |= UInt64(byte)
            index += 1
        }
        guard index < end else { return .needMore }
        let nameEnd = index
        if nameEnd == nameStart { return .malformed("a '<' does not start a tag", resume: start + 1) }
        var invalid = seen & XMLByteScanner.highBits != 0
            && UTF8Validation.firstInvalidOffset(bytes + nameStart, count: nameEnd - nameStart) != nil
        var count = 0
        while true {
            while index < end, isSpace(bytes[index]) { index += 1 }
            guard index < end else { return .needMore }
            let byte = bytes[index]
            if byte == UInt8(ascii: ">") || byte == UInt8(ascii: "/") {
                var close = index
                if byte == UInt8(ascii: "/") {
                    close += 1
                    guard close < end else { return .needMore }
                    guard bytes[close] == UInt8(ascii: ">") else {
                        return .malformed("the tag has a stray '/'", resume: start + 1)
                    }
                }
                let tag = XMLTag(kind: byte == UInt8(ascii: "/") ? .empty : .open,
                                 name: UnsafeBufferPointer(start: bytes + nameStart, count: nameEnd - nameStart),
                                 attributes: UnsafeBufferPointer(start: attributes, count: count), line: lineAt(start),
                                 hasInvalidUTF8: invalid)
                try onTag(tag)
                return .done(close + 1)
            }
            if byte == UInt8(ascii: "<") { return .malformed("the tag is not closed with '>'", resume: index) }
            // Attribute name: up to '=' (spaces inside are tolerated and trimmed), eight bytes at a time.
            let attributeStart = index
            seen = 0
            while index + 8 <= end {
                let word = UnsafeRawPointer(bytes + index).loadUnaligned(as: UInt64.self)
                let special = XMLByteScanner.matches(word, XMLByteScanner.equalSigns) | XMLByteScanner.matches(word, XMLByteScanner.lessThans)
                    | XMLByteScanner.matches(word, XMLByteScanner.greaterThans)
                seen |= word
                if special != 0 {
                    index += special.trailingZeroBitCount >> 3
                    break
                }
                index += 8
            }
            while index < end, bytes[index] != UInt8(ascii: "="), bytes[index] != UInt8(ascii: ">"), bytes[index] != UInt8(ascii: "<") {
                seen |= UInt64(bytes[index])
                index += 1
            }
            guard index < end else { return .needMore }
            guard bytes[index] == UInt8(ascii: "=") else {
                return .malformed("an attribute has no value", resume: bytes[index] == UInt8(ascii: "<") ? index : start + 1)
            }
            var attributeEnd = index
            while attributeEnd > attributeStart, isSpace(bytes[attributeEnd - 1]) { attributeEnd -= 1 }
            index += 1
            while index < end, isSpace(bytes[index]) { index += 1 }
            guard index < end else { return .needMore }
            let quote = bytes[index]
            guard quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") else {
                return .malformed("an attribute value is not quoted", resume: start + 1)
            }
            index += 1
            let valueStart = index
            var flagged: UInt8 = 0
            let quotes = XMLByteScanner.ones &* UInt64(quote)
            value: while true {
                // Eight bytes at a time while none is the quote, '<', '&' or a control character.
                while index + 8 <= end {
                    let word = UnsafeRawPointer(bytes + index).loadUnaligned(as: UInt64.self)
                    let special = XMLByteScanner.matches(word, quotes) | XMLByteScanner.matches(word, XMLByteScanner.lessThans)
                        | XMLByteScanner.matches(word, XMLByteScanner.ampersands)
                        | ((word &- 0x2020_2020_2020_2020) & ~word & XMLByteScanner.highBits)
                    seen |= word
                    if special != 0 {
                        // The lowest flagged byte is a real match (only bytes after one can be flagged falsely).
                        index += special.trailingZeroBitCount >> 3
                        break
                    }
                    index += 8
                }
                let stop = min(end, index + 8)
                while index < stop {
                    let byte = bytes[index]
                    if byte == quote { break value }
                    if byte == UInt8(ascii: "<") { return .malformed("an attribute value is not closed", resume: index) }
                    flagged |= (byte == UInt8(ascii: "&") || byte < 0x20) ? 1 : 0
                    seen |= UInt64(byte)
                    index += 1
                }
                if index >= end { break }
            }
            guard index < end else { return .needMore }
            if attributeEnd == attributeStart { return .malformed("an attribute has no name", resume: start + 1) }
            if !invalid && seen & XMLByteScanner.highBits != 0
                && UTF8Validation.firstInvalidOffset(bytes + attributeStart, count: index - attributeStart) != nil {
                invalid = true
            }
            if count == attributeCapacity { growAttributes() }
            attributes[count] = XMLAttribute(
                name: UnsafeBufferPointer(start: bytes + attributeStart, count: attributeEnd - attributeStart),
                rawValue: UnsafeBufferPointer(start: bytes + valueStart, count: index - valueStart),
                needsDecoding: flagged != 0)
            count += 1
            index += 1
        }
    }

    private static var ones: UInt64 { 0x0101_0101_0101_0101 }
    private static var highBits: UInt64 { 0x8080_8080_8080_8080 }
    /// '<' in every byte.
    private static var lessThans: UInt64 { 0x3C3C_3C3C_3C3C_3C3C }
    /// '=' in every byte.
    private static var equalSigns: UInt64 { 0x3D3D_3D3D_3D3D_3D3D }
    /// '>' in every byte.
    private static var greaterThans: UInt64 { 0x3E3E_3E3E_3E3E_3E3E }
    /// '&' in every byte.
    private static var ampersands: UInt64 { 0x2626_2626_2626_2626 }

    /// Non-zero when a byte of `word` equals the byte repeated in `pattern` (it may also flag bytes after a match,
    /// which only sends the scan to its byte-by-byte loop).
    @inline(__always)
    private static func matches(_ word: UInt64, _ pattern: UInt64) -> UInt64 {
        let x = word ^ pattern
        return (x &- ones) & ~x & highBits
    }

    private func growAttributes() {
        let grown = UnsafeMutablePointer<XMLAttribute>.allocate(capacity: attributeCapacity * 2)
        grown.moveInitialize(from: attributes, count: attributeCapacity)
        attributes.deallocate()
        attributes = grown
        attributeCapacity *= 2
    }
}
