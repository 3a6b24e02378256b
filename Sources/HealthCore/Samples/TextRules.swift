import TextSupport

/// What the store accepts in text a person reads as a name or a label: source names, and metadata keys and values.
/// One rule for the command line, imports and the library (``JSONFileStore/save(_:)``), so that no name can pass
/// for another on screen (`hkctl\u{200B}` shown as `hkctl`, a right-to-left override reversing what follows).
///
/// Refused anywhere in such text: C0 controls (U+0000–U+001F, tab and newline included), DEL (U+007F), C1 controls
/// (U+0080–U+009F, U+0085 included), the line and paragraph separators U+2028 and U+2029, the bidirectional
/// controls (U+061C, U+200E, U+200F, U+202A–U+202E, U+2066–U+2069) and the zero-width characters (U+200B–U+200D,
/// U+2060, U+FEFF). Every other character is accepted: letters of any script, the no-break space U+00A0, the
/// typographic apostrophe U+2019 (`José’s iPhone`), emoji.
///
/// Two exceptions keep text people and phones write every day:
/// - the joiners U+200C and U+200D where they shape what is shown (``joinerShapes(_:at:)``): U+200D inside one of the
///   emoji sequences Unicode lists (`🏳️‍🌈`, `👩‍💻`, a device named after its owner's flag or job), U+200C after an
///   Arabic letter that joins the next (Persian `می‌خواهم`), either after the virama of an Indic script that forms
///   conjuncts (`क्‍ष`). Elsewhere (`hk‍ctl`, `日‍本`, `💪‍💪`, `د‌ر`, `١‌٢`, Tamil `க்‌க`) they change nothing on
///   screen, would hide in a name, and stay refused;
/// - tab, newline and carriage return in a metadata value (not a key or a source name): a note or a food's name of
///   several lines, as an Apple Health export writes them (`&#10;`). Tables show them escaped (``shown(_:)``).
///
/// A source name is 1 to ``sourceNameLimit`` Unicode scalars. Metadata keys starting with `@` are the library's own
/// (an import keeps an element's unknown children as JSON under `@children`) and their values are not checked.
public enum TextRules: Sendable {
    /// The longest source name, in Unicode scalars.
    public static let sourceNameLimit = 200

    /// Whether `scalar` is refused in a source name or metadata.
    @inline(__always)
    public static func isRefused(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F: return true          // C0, DEL, C1 (U+0085 NEXT LINE)
        case 0x2028, 0x2029: return true                      // line and paragraph separators
        case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: return true  // bidirectional controls
        case 0x200B...0x200D, 0x2060, 0xFEFF: return true     // zero-width characters
        default: return false
        }
    }

    /// Whether the scalar at `index` of `scalars` is refused where it stands: as ``isRefused(_:)``, except a joiner
    /// that shapes what is shown (``joinerShapes(_:at:)``) and, with `lineBreaks` (a metadata value), a tab, newline
    /// or carriage return.
    static func isRefused(_ scalars: [Unicode.Scalar], at index: Int, lineBreaks: Bool) -> Bool {
        switch scalars[index].value {
        case 0x200C, 0x200D: return !joinerShapes(scalars, at: index)
        case 0x09, 0x0A, 0x0D: return !lineBreaks
        default: return isRefused(scalars[index])
        }
    }

    /// The first refused scalar of `text`, if any; `lineBreaks`: whether tabs and line breaks are accepted (a
    /// metadata value's).
    public static func firstRefused(in text: String, lineBreaks: Bool = false) -> Unicode.Scalar? {
        // Most text holds no refused scalar: a byte scan of its UTF-8 (exact for valid UTF-8, which a String's is)
        // says so without decoding scalars; only text that may hold one is decoded to find which.
        if text.utf8.withContiguousStorageIfAvailable({ containsRefused(utf8: $0) }) == false { return nil }
        let scalars = Array(text.unicodeScalars)
        return scalars.indices.first { isRefused(scalars, at: $0, lineBreaks: lineBreaks) }.map { scalars[$0] }
    }

    /// Whether UTF-8 `bytes` may hold a refused scalar (exact for valid UTF-8 but for the exceptions, which it
    /// counts as refused: ``firstRefused(in:lineBreaks:)`` then decides), without making a string: a byte scan for
    /// the import's fast path.
    static func containsRefused(utf8 bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let count = bytes.count
        var index = 0
        while index < count {
            // Eight bytes at a time while they are all printable ASCII (no byte from 0x80, below 0x20, or 0x7F): the
            // usual text. Any other word goes on byte by byte from its first byte.
            if index + 8 <= count {
                let word = UnsafeRawPointer(bytes.baseAddress! + index).loadUnaligned(as: UInt64.self)
                let ones: UInt64 = 0x0101_0101_0101_0101, high: UInt64 = 0x8080_8080_8080_8080
                let controls = (word &- ones &* 0x20) & ~word & high
                let deletes = word ^ (ones &* 0x7F)
                if (word & high) | controls | ((deletes &- ones) & ~deletes & high) == 0 {
                    index += 8
                    continue
                }
            }
            let byte = bytes[index]
            if byte < 0x80 {
                if byte < 0x20 || byte == 0x7F { return true }
                index += 1
                continue
            }
            let next = index + 1 < count ? bytes[index + 1] : 0
            let third = index + 2 < count ? bytes[index + 2] : 0
            switch byte {
            case 0xC2 where next >= 0x80 && next <= 0x9F: return true                        // C1
            case 0xD8 where next == 0x9C: return true                                         // U+061C
            case 0xE2 where next == 0x80 && ((0x8B...0x8F).contains(third) || (0xA8...0xAE).contains(third)):
                return true                                                                   // U+200B-200F, 2028-202E
            case 0xE2 where next == 0x81 && (third == 0xA0 || (0xA6...0xA9).contains(third)): return true  // U+2060, 2066-2069
            case 0xEF where next == 0xBB && third == 0xBF: return true                       // U+FEFF
            default: index += 1
            }
        }
        return false
    }

    /// `text` as it can be shown in a message: refused scalars (tabs and line breaks too) written `\u{200B}`, and
    /// at most 60 characters of a long text.
    public static func shown(_ text: String) -> String {
        var result = ""
        let scalars = Array(text.unicodeScalars)
        for index in scalars.indices {
            if index == 60 { return result + "…" }
            if isRefused(scalars, at: index, lineBreaks: false) {
                result += "\\u{" + String(scalars[index].value, radix: 16, uppercase: true) + "}"
            } else {
                result.unicodeScalars.append(scalars[index])
            }
        }
        return result
    }

    /// Why `name` cannot be a source name, or nil when it can.
    public static func sourceNameProblem(_ name: String) -> String? {
        if name.isEmpty { return "a source name cannot be empty" }
        // At most as many scalars as UTF-8 bytes: a short name free of refused scalars needs no counting.
        if name.utf8.count <= sourceNameLimit, firstRefused(in: name) == nil { return nil }
        if let scalar = firstRefused(in: name) {
            return "the source name '\(shown(name))' holds \(describe(scalar)); give a name without invisible or control characters"
        }
        let count = name.unicodeScalars.count
        if count > sourceNameLimit {
            return "the source name '\(shown(name))' is \(count) characters long; give one of at most \(sourceNameLimit)"
        }
        return nil
    }

    /// Checks a source name.
    ///
    /// - Throws: ``TextError/sourceName(_:)`` saying what is wrong.
    public static func checkSourceName(_ name: String) throws {
        if let problem = sourceNameProblem(name) { throw TextError.sourceName(problem) }
    }

    /// Why a metadata key or value cannot be stored, or nil when it can.
    public static func metadataProblem(key: String, value: MetadataValue) -> String? {
        if case let .number(number) = value, !number.isFinite {
            return "the metadata value of '\(shown(key))' is \(number), which JSON cannot hold; give a finite number"
        }
        if let scalar = firstRefused(in: key) {
            return "the metadata key '\(shown(key))' holds \(describe(scalar)); give keys without invisible or control characters"
        }
        // The byte first: most keys do not start with `@`, and those that do are asked as before.
        if key.utf8.first == UInt8(ascii: "@"), key.hasPrefix("@") { return nil }
        if case let .string(text) = value, let scalar = firstRefused(in: text, lineBreaks: true) {
            return "the metadata value of '\(shown(key))' ('\(shown(text))') holds \(describe(scalar)); give values without invisible or control characters"
        }
        return nil
    }

    /// Why `sample` cannot be stored because of its source name or metadata, or of a date or number no store line can
    /// hold (a date before 1900 or after 2999, a NaN), or nil when it can.
    public static func problem(in sample: Sample) -> String? {
        if let problem = StorableValues.problem(in: sample) { return problem }
        if let problem = sourceNameProblem(sample.source) { return problem }
        for (key, value) in sample.metadata {
            if let problem = metadataProblem(key: key, value: value) { return problem }
        }
        return nil
    }

    /// Checks a sample's source name and metadata, and its dates and numbers (``StorableValues``).
    ///
    /// - Throws: ``TextError`` saying what is wrong.
    public static func check(_ sample: Sample) throws {
        if let problem = problem(in: sample) { throw TextError.sample(uuid: sample.uuid.lowercasedText, problem) }
    }

    /// `U+200B`, and what kind of character it is.
    static func describe(_ scalar: Unicode.Scalar) -> String {
        let code = "U+" + String(repeating: "0", count: max(0, 4 - String(scalar.value, radix: 16).count))
            + String(scalar.value, radix: 16, uppercase: true)
        let kind: String
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F: kind = "a control character"
        case 0x2028, 0x2029: kind = "a line or paragraph separator"
        case 0x200B...0x200D, 0x2060, 0xFEFF: kind = "a zero-width character"
        default: kind = "a bidirectional control"
        }
        return "\(code) (\(kind))"
    }
}

/// Text the store will not keep (see ``TextRules``).
public enum TextError: Error, Equatable, Sendable, CustomStringConvertible, LocalizedError {
    /// A source name is empty, too long, or holds a refused character; payload: what is wrong.
    case sourceName(String)
    /// A sample's source name or metadata holds a refused character; payload: its uuid and what is wrong.
    case sample(uuid: String, String)

    public var description: String {
        switch self {
        case let .sourceName(problem):
            return upperFirst(problem) + "."
        case let .sample(uuid, problem):
            return "The sample \(uuid) cannot be saved: \(problem). Nothing was saved."
        }
    }

    public var errorDescription: String? { description }

    private func upperFirst(_ text: String) -> String { text.prefix(1).uppercased() + text.dropFirst() }
}
