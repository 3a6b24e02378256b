import Foundation
import Testing
import TestKit
@testable import HealthCore
import TextSupport

/// The package's own trimming and joining must give exactly what Foundation's and the standard library's do.
struct TextHelperTests {
    static let samples = [
        "", " ", "\t", "abc", "  abc  ", "\tabc\t", " a b ", "\u{00A0}abc\u{3000}", "\u{2003}\u{2009}x\u{202F}",
        "\nabc\n", "\r\nabc\r\n", "\u{0085}x\u{2028}", "\u{2029}x\u{000B}\u{000C}", "é ", " é", " e\u{301} ",
        "\u{200B}x\u{200B}", "\u{FEFF}x", "  \u{1F600}  ", "x\u{1680}", "\u{180E}x", " \n \t ", "日本 ", " 250 mL ",
    ]

    @Test(arguments: samples)
    func trimsSpacesAsFoundationDoes(text: String) {
        expectEqual(text.trimmingSpaces(), text.trimmingCharacters(in: .whitespaces))
        expectEqual(text[...].trimmingSpaces(), text.trimmingCharacters(in: .whitespaces))
    }

    /// Trailing spaces dropped exactly as the generic chain the output used before did (a space with a combining mark
    /// is one character that is not a space; other space characters stay).
    @Test(arguments: samples + ["a  ", "  ", "a \u{301} ", "a \u{301}", "x\u{00A0} ", "tab\t ", "日本  ", " ", "a b  c   "])
    func dropsTrailingSpacesAsTheReversedDropDid(text: String) {
        expectEqual(text.droppingTrailingSpaces(), String(text.reversed().drop { $0 == " " }.reversed()))
    }

    @Test(arguments: samples)
    func trimsSpacesAndNewlinesAsFoundationDoes(text: String) {
        expectEqual(text.trimmingSpacesAndNewlines(), text.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    @Test func trimsEveryScalarAsFoundationDoes() {
        // Every scalar of the Basic Multilingual Plane and a few beyond, around a letter.
        for value in Array(UInt32(0)..<0x10000) + [0x1F600, 0xE0020, 0x10FFFD] {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let text = "\(scalar)x\(scalar)"
            expectEqual(text.trimmingSpaces(), text.trimmingCharacters(in: .whitespaces), "U+\(String(value, radix: 16))")
            expectEqual(text.trimmingSpacesAndNewlines(), text.trimmingCharacters(in: .whitespacesAndNewlines),
                        "U+\(String(value, radix: 16))")
        }
    }

    @Test(arguments: [[], [""], ["a"], ["a", "b"], ["", "", ""], ["héllo", "wörld", "日本"], ["x", "", "y"]] as [[String]])
    func joinsAsTheStandardLibraryDoes(parts: [String]) {
        for separator in ["", ",", " · ", "→"] {
            // An ArraySlice takes the standard library's generic `joined`.
            expectEqual(parts.joined(separator: separator), parts[...].joined(separator: separator))
        }
        expectEqual(parts.joined(), parts[...].joined())
    }
}
