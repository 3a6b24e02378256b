/// What kind of writer a source is, guessed from its name (and device), for the default priority order.
///
/// The default order is ``wearable`` (a watch or band measures continuously and is worn when it counts), then
/// ``phone``, then ``app``, then ``manual`` (typed-in values are the likeliest duplicates of tracked data).
public enum SourceKind: Int, Comparable, CaseIterable, Sendable {
    /// A watch, band or other worn tracker.
    case wearable
    /// A phone.
    case phone
    /// Any other app or device.
    case app
    /// Data entered by hand: the store owner's default source (`hkctl`), or Apple's Health app.
    case manual

    public static func < (lhs: SourceKind, rhs: SourceKind) -> Bool { lhs.rawValue < rhs.rawValue }

    /// The name used in output (`wearable`).
    public var name: String {
        switch self {
        case .wearable: return "wearable"
        case .phone: return "phone"
        case .app: return "app"
        case .manual: return "manual"
        }
    }

    private static let wearableWords = [
        "watch", "band", "fitbit", "garmin", "whoop", "oura", "polar", "amazfit", "wearable", "tracker", "ring", "suunto",
        "coros", "wahoo",
    ]
    private static let phoneWords = ["iphone", "phone", "pixel", "galaxy", "android", "smartphone"]
    private static let manualWords = ["hkctl", "health", "manual"]

    /// Classifies a source by the words of its name and of its device description.
    ///
    /// `Jane’s Apple Watch` and a device `hardware:Watch6,2` are wearables; `iPhone` is a phone; `hkctl` and
    /// `Health` are manual entry; anything else is an app.
    ///
    /// - Parameters:
    ///   - name: The source name.
    ///   - device: A device description of one of its samples, if any.
    public static func classify(name: String, device: String? = nil) -> SourceKind {
        let words = words(in: name)
        let deviceWords = device.map { self.words(in: $0) } ?? []
        if words.contains(where: wearableWords.contains) { return .wearable }
        if words.contains(where: phoneWords.contains) { return .phone }
        if words.contains(where: manualWords.contains) { return .manual }
        if deviceWords.contains(where: wearableWords.contains) { return .wearable }
        if deviceWords.contains(where: phoneWords.contains) { return .phone }
        return .app
    }

    /// Lower-cased runs of letters: `Watch6,2` gives `watch`; `Jane’s iPhone` gives `jane`, `s`, `iphone`.
    static func words(in text: String) -> [String] {
        // Names of ASCII letters and punctuation (such as "Jane’s iPhone") are split scalar by scalar: the same
        // words, without the generic `split`, whose first use costs a short command measurable start-up time.
        if text.unicodeScalars.allSatisfy({ $0.isASCII || isPunctuationOrSymbol($0) }) {
            var words: [String] = []
            var word: [UInt8] = []
            for scalar in text.unicodeScalars {
                let byte = scalar.isASCII ? UInt8(scalar.value) : 0
                if byte | 0x20 >= 0x61 && byte | 0x20 <= 0x7A {
                    word.append(byte | 0x20)
                } else if !word.isEmpty {
                    words.append(String(decoding: word, as: UTF8.self))
                    word.removeAll(keepingCapacity: true)
                }
            }
            if !word.isEmpty { words.append(String(decoding: word, as: UTF8.self)) }
            return words
        }
        return text.lowercased().split { !$0.isLetter }.map(String.init)
    }

    /// Whether a scalar is a character of its own that is not a letter: punctuation, a symbol or a space, never
    /// combined with what follows.
    private static func isPunctuationOrSymbol(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation, .initialPunctuation,
             .finalPunctuation, .otherPunctuation, .mathSymbol, .currencySymbol, .modifierSymbol, .otherSymbol,
             .spaceSeparator:
            return !scalar.properties.isGraphemeExtend && !scalar.properties.isEmojiPresentation
                && !scalar.properties.isEmoji
        default: return false
        }
    }
}
