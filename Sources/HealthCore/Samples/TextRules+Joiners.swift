extension TextRules {
    /// Whether the joiner (U+200C ZERO WIDTH NON-JOINER or U+200D ZERO WIDTH JOINER) at `index` of `scalars` changes
    /// what is shown, so that a name holding it cannot pass for the same name without it:
    /// - U+200D inside one of the emoji sequences Unicode lists (``emojiSequences``: `🏳️‍🌈`, `👩‍💻`, `👨‍👩‍👧‍👧`, which
    ///   show as one picture); between any other emoji (`💪‍💪`, `©‍®`) it shows nothing;
    /// - U+200C after a letter of Arabic script (U+0620–U+06FF, U+0750–U+077F, U+08A0–U+08FF) that joins the next one
    ///   (not `ا د ر و ء`), before a letter that can be joined (Persian writes `می‌خواهم`);
    /// - either joiner after the virama of an Indic script that forms conjuncts (Devanagari to Sinhala, not Tamil),
    ///   before a letter of the same script (`क्‍ष`, `ക്‌ക`).
    static func joinerShapes(_ scalars: [Unicode.Scalar], at index: Int) -> Bool {
        guard index > 0, index + 1 < scalars.count else { return false }
        let joiner = scalars[index], before = scalars[index - 1], after = scalars[index + 1]
        if isRefused(before) || isRefused(after) { return false }
        if joiner.value == 0x200D && isInEmojiSequence(scalars, at: index) { return true }
        guard after.properties.generalCategory == .otherLetter else { return false }
        if joiner.value == 0x200C, isArabic(before), isArabic(after) {
            return before.properties.generalCategory == .otherLetter && !arabicNonJoining(before) && !arabicNonJoining(after, joinedFromRight: true)
        }
        if let block = conjunctBlock(before), block == conjunctBlock(after) {
            return before.properties.canonicalCombiningClass == .virama
        }
        return false
    }

    /// Whether the joiner at `index` lies inside one of Unicode's emoji sequences written in `scalars`.
    private static func isInEmojiSequence(_ scalars: [Unicode.Scalar], at index: Int) -> Bool {
        for length in 3...emojiSequenceLongest {
            for start in max(0, index - length + 2)...index - 1 where start + length <= scalars.count {
                var text = ""
                text.unicodeScalars.append(contentsOf: scalars[start..<start + length])
                if emojiSequences.contains(text) { return true }
            }
        }
        return false
    }

    /// Unicode's emoji ZWJ sequences (``emojiSequenceText``), made the first time a text holds a joiner.
    static let emojiSequences: Set<String> = Set(emojiSequenceText.split(separator: "\n").map(String.init))

    /// The most scalars an emoji sequence has.
    private static let emojiSequenceLongest = emojiSequences.map(\.unicodeScalars.count).max() ?? 3

    private static func isArabic(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0620...0x06FF, 0x0750...0x077F, 0x08A0...0x08FF: return true
        default: return false
        }
    }

    /// The 128-code-point block of an Indic script that forms conjuncts with a virama (Devanagari, Bengali, Gurmukhi,
    /// Gujarati, Oriya, Telugu, Kannada, Malayalam, Sinhala: not Tamil), or nil.
    private static func conjunctBlock(_ scalar: Unicode.Scalar) -> UInt32? {
        switch scalar.value {
        case 0x0900...0x0B7F, 0x0C00...0x0DFF: return scalar.value >> 7
        default: return nil
        }
    }

    /// Letters of Arabic script that never join the letter after them (Unicode's joining types R and U): a joiner after
    /// one changes nothing. With `joinedFromRight`, those that no letter joins either (type U: the hamza).
    private static func arabicNonJoining(_ scalar: Unicode.Scalar, joinedFromRight: Bool = false) -> Bool {
        switch scalar.value {
        case 0x0621, 0x0674: return true
        case 0x0622...0x0625, 0x0627, 0x0629, 0x062F...0x0632, 0x0648, 0x0671...0x0673, 0x0675...0x0677,
             0x0688...0x0699, 0x06C0, 0x06C3...0x06CB, 0x06CD, 0x06CF, 0x06D2, 0x06D3, 0x06D5, 0x06EE, 0x06EF,
             0x0759...0x075B, 0x076B, 0x076C, 0x0771, 0x0773, 0x0774, 0x0778, 0x0779, 0x08AA...0x08AC, 0x08AE,
             0x08B1, 0x08B2, 0x08B9:
            return !joinedFromRight
        default:
            return false
        }
    }
}
