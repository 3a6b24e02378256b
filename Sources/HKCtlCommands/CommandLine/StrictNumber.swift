/// Numbers typed on the command line, read strictly: plain decimal notation only (`12`, `-0.5`, `1e3`), never
/// hexadecimal (`0x10`), `nan`, `inf` or digits with separators, which `Double(_:)` would partly accept.
enum StrictNumber {
    /// The value of `text`, or nil when it is not a plain finite decimal number.
    static func parse(_ text: String) -> Double? {
        var sawDigit = false, sawPoint = false, sawExponent = false, previous: Character = " "
        for (offset, character) in text.enumerated() {
            switch character {
            case "0"..."9": sawDigit = true
            case "-", "+": guard offset == 0 || previous == "e" || previous == "E" else { return nil }
            case ".": guard !sawPoint, !sawExponent else { return nil }; sawPoint = true
            case "e", "E": guard sawDigit, !sawExponent else { return nil }; sawExponent = true
            default: return nil
            }
            previous = character
        }
        guard sawDigit, let value = Double(text), value.isFinite else { return nil }
        return value
    }
}
