/// Quoting of values placed into a command that a message suggests (`hkctl auth grant 'x; y' --share water`), so
/// that pasting the suggestion into a POSIX shell passes each value as one word and runs nothing else.
package enum ShellQuoting {
    /// `text` as one POSIX shell word: unchanged when it holds only characters no shell treats specially
    /// (letters, digits and `_ . , / : = @ % + -`), otherwise in single quotes with each
    /// `'` written as `'\''`. The empty string is `''`.
    package static func quote(_ text: String) -> String {
        if !text.isEmpty, text.unicodeScalars.allSatisfy(isPlain) { return text }
        var quoted = "'"
        for scalar in text.unicodeScalars {
            if scalar == "'" { quoted += "'\\''" } else { quoted.unicodeScalars.append(scalar) }
        }
        return quoted + "'"
    }

    private static func isPlain(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "a"..."z", "A"..."Z", "0"..."9", "_", ".", ",", "/", ":", "=", "@", "%", "+", "-": return true
        default: return false
        }
    }
}
