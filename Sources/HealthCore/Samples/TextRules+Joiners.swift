extension TextRules {
    /// Whether the joiner (U+200C ZERO WIDTH NON-JOINER or U+200D ZERO WIDTH JOINER) at `index` of `scalars` changes
    /// what is shown, so that a name holding it cannot pass for the same name without it:
    /// - U+200D inside an emoji sequence: after an emoji (or its presentation selector or skin tone) and before one of
    ///   the emoji Unicode's sequences join on (``sequenceParts``); an emoji joined to itself only where the sequence
    ///   goes on (`👨‍👨‍👦`, not `👨‍👨`);
    /// - either joiner after a letter of Arabic script that joins the next one (not `ا د ر و`, which never do) and
    ///   before another letter of the script: Persian writes `می‌خواهم`;
    /// - either joiner after an Indic virama (`क्‍ष`, `ക്‌ക`), before a letter of the script.
    static func joinerShapes(_ scalars: [Unicode.Scalar], at index: Int) -> Bool {
        guard index > 0, index + 1 < scalars.count else { return false }
        let joiner = scalars[index], before = scalars[index - 1], after = scalars[index + 1]
        if isRefused(before) || isRefused(after) { return false }
        if joiner.value == 0x200D, let base = emojiBase(scalars, before: index) {
            guard sequenceParts.contains(after.value) else { return false }
            return base != after || (index + 2 < scalars.count && scalars[index + 2].value == 0x200D)
        }
        let letterAfter = after.properties.generalCategory == .otherLetter
        if (0x0620...0x08FF).contains(before.value), (0x0620...0x08FF).contains(after.value) {
            return before.properties.generalCategory == .otherLetter && !arabicNonJoining(before) && letterAfter
        }
        if (0x0900...0x0DFF).contains(before.value), (0x0900...0x0DFF).contains(after.value) {
            return before.properties.canonicalCombiningClass == .virama && letterAfter
        }
        return false
    }

    /// The emoji a joiner at `index` follows, past its presentation selector and skin tone; nil when it follows none.
    private static func emojiBase(_ scalars: [Unicode.Scalar], before index: Int) -> Unicode.Scalar? {
        var position = index - 1
        while position >= 0, scalars[position].value == 0xFE0F || (0x1F3FB...0x1F3FF).contains(scalars[position].value) {
            position -= 1
        }
        guard position >= 0 else { return nil }
        let base = scalars[position]
        return !base.isASCII && base.properties.isEmoji ? base : nil
    }

    /// The emoji that Unicode's recommended ZWJ sequences join on after a U+200D (15.1): genders and roles, family
    /// members, hair, objects of professions, colours, the heart and kiss of couples.
    static let sequenceParts: Set<UInt32> = [
        0x2620, 0x2640, 0x2642, 0x2695, 0x2696, 0x26A7, 0x2708, 0x2744, 0x2764, 0x27A1, 0x2B1B,
        0x1F308, 0x1F32B, 0x1F33E, 0x1F373, 0x1F37C, 0x1F384, 0x1F393, 0x1F3A4, 0x1F3A8, 0x1F3EB, 0x1F3ED,
        0x1F466, 0x1F467, 0x1F468, 0x1F469, 0x1F48B, 0x1F4A8, 0x1F4AB, 0x1F4BB, 0x1F4BC, 0x1F525, 0x1F527, 0x1F52C,
        0x1F5E8, 0x1F680, 0x1F692, 0x1F7E9, 0x1F7EB, 0x1F91D, 0x1F9AF, 0x1F9B0, 0x1F9B1, 0x1F9B2, 0x1F9B3, 0x1F9BA,
        0x1F9BC, 0x1F9BD, 0x1F9D1, 0x1F9D2, 0x1FA79, 0x1FAF2,
    ]

    /// Letters of Arabic script that never join the letter after them (Unicode's joining types R and U): a joiner after
    /// one changes nothing.
    private static func arabicNonJoining(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0621...0x0625, 0x0627, 0x0629, 0x062F...0x0632, 0x0648, 0x0671...0x0673, 0x0675...0x0677,
             0x0688...0x0699, 0x06C0, 0x06C3...0x06CB, 0x06CD, 0x06CF, 0x06D2, 0x06D3, 0x06D5, 0x06EE, 0x06EF,
             0x0759...0x075B, 0x076B, 0x076C, 0x0771, 0x0773, 0x0774, 0x0778, 0x0779, 0x08AA...0x08AC, 0x08AE,
             0x08B1, 0x08B2, 0x08B9:
            return true
        default:
            return false
        }
    }
}
