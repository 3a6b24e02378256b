extension StringProtocol {
    /// The text without leading and trailing spaces and tabs: Unicode space separators (category Zs), U+0009 and
    /// the zero-width space U+200B, the set Foundation calls `CharacterSet.whitespaces`. Works on Unicode scalars, as Foundation's trimming does,
    /// without Foundation's bridging to `NSString`.
    @inlinable package func trimmingSpaces() -> String { trimming(where: Trimming.isSpace) }

    /// The text without leading and trailing spaces, tabs and line breaks: `CharacterSet.whitespacesAndNewlines`
    /// (Zs, U+0009 to U+000D, U+0085, U+200B, U+2028 and U+2029).
    @inlinable package func trimmingSpacesAndNewlines() -> String { trimming(where: Trimming.isSpaceOrNewline) }

    /// The text without the leading and trailing Unicode scalars `isTrimmed` accepts, as Foundation's
    /// `trimmingCharacters(in:)` removes a `CharacterSet`'s.
    @inlinable package func trimming(where isTrimmed: (Unicode.Scalar) -> Bool) -> String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !isTrimmed($0) }) else { return "" }
        let last = scalars.lastIndex(where: { !isTrimmed($0) })!
        return String(self[first..<scalars.index(after: last)])
    }
}

extension String {
    /// The text without the spaces (U+0020 characters) at its end, as `String(reversed().drop { $0 == " " }.reversed())`
    /// gives it, without that generic chain: its first use looks up protocol conformances by scanning all of the
    /// program's (1.4 M instructions of `hkctl today`'s 18 M).
    package func droppingTrailingSpaces() -> String {
        var end = endIndex
        while end > startIndex {
            let before = index(before: end)
            guard self[before] == " " else { break }
            end = before
        }
        return String(self[..<end])
    }
}

/// The scalar classes that `trimmingSpaces()` and `trimmingSpacesAndNewlines()` remove.
@usableFromInline package enum Trimming {
    @usableFromInline package static func isSpace(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.value < 0x80 { return scalar.value == 0x20 || scalar.value == 0x09 }
        return scalar.value == 0x200B || scalar.properties.generalCategory == .spaceSeparator
    }

    @usableFromInline package static func isSpaceOrNewline(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09...0x0D, 0x20, 0x85, 0x200B, 0x2028, 0x2029: return true
        case 0..<0x80: return false
        default: return scalar.properties.generalCategory == .spaceSeparator
        }
    }
}
