import HealthCore

/// Makes an error message one readable line, whatever the user typed into it: control characters (a newline, an
/// escape sequence) are shown escaped, and a message made huge by a huge argument is shortened in the middle.
enum ErrorLine {
    static let maximumLength = 600

    static func clean(_ message: String) -> String {
        var result = ""
        for scalar in message.unicodeScalars {
            switch scalar {
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            default:
                if TextRules.isRefused(scalar) {
                    result += "\\u{\(String(scalar.value, radix: 16))}"
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        guard result.count > maximumLength else { return result }
        let omitted = result.count - maximumLength
        return String(result.prefix(maximumLength / 2)) + " …(\(omitted) characters left out)… " + String(result.suffix(maximumLength / 2))
    }
}
