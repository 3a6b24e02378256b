/// Literal search and replace in text, character by character (so with Unicode canonical equivalence, like
/// `==` on `String`): what Foundation's `range(of:)` and `replacingOccurrences(of:with:)` without options gave,
/// without Foundation and without the standard library's `firstRange(of:)` and `replacing(_:with:)`, which need
/// macOS 13.
extension StringProtocol {
    /// The first occurrence of `target`, or nil (also when `target` is empty).
    @inlinable package func firstRange(ofText target: some StringProtocol) -> Range<Index>? {
        guard let first = target.first else { return nil }
        var start = startIndex
        while let candidate = self[start...].firstIndex(of: first) {
            var position = candidate
            var matched = true
            for character in target {
                guard position < endIndex, self[position] == character else { matched = false; break }
                position = index(after: position)
            }
            if matched { return candidate..<position }
            start = index(after: candidate)
        }
        return nil
    }

    /// The text with every occurrence of `target`, left to right and not overlapping, replaced by `replacement`.
    @inlinable package func replacingEvery(_ target: some StringProtocol, with replacement: some StringProtocol) -> String {
        var result = ""
        var rest = self[...]
        while let found = rest.firstRange(ofText: target) {
            result += rest[..<found.lowerBound]
            result += replacement
            rest = rest[found.upperBound...]
        }
        result += rest
        return result
    }
}
