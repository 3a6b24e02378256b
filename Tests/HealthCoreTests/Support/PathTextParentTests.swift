import Testing
import TextSupport

/// `PathText.parent(of:)` takes the text before the last slash as it is when no slash repeats, and reads an ASCII path
/// byte by byte (issue 32); every path, repeated slashes included, still gives what splitting and joining the
/// components gave. `PathText.components(of:)` gives what `split(separator: "/")` gives.
struct PathTextParentTests {
    /// The definition the fast path must match.
    private static func reference(_ path: String) -> String {
        var trimmed = Substring(path)
        while trimmed.hasSuffix("/") { trimmed.removeLast() }
        if trimmed.isEmpty { return path.isEmpty ? "" : "/" }
        guard let slash = trimmed.lastIndex(of: "/") else { return "" }
        let components = trimmed[..<slash].split(separator: "/").map(String.init).joined(separator: "/")
        return trimmed.hasPrefix("/") ? "/" + components : components
    }

    @Test func everyShortPathOverFiveCharactersMatchesTheDefinition() {
        // "\u{301}" is a combining accent: after a slash, it makes one character with it.
        let alphabet: [String] = ["a", "/", ".", "é", "\u{301}"]
        var paths = [""]
        for _ in 0..<6 {
            paths = paths + paths.flatMap { path in alphabet.map { path + $0 } }.filter { $0.unicodeScalars.count <= 6 }
        }
        // One expectation for all of them: an expectation per case is slow in a debug build.
        let wrong = Set(paths).filter { path in PathText.parent(of: path) != Self.reference(path) }
        #expect(wrong.isEmpty, "\(wrong.prefix(10))")
        let split = Set(paths).filter { path in PathText.components(of: path) != path.split(separator: "/") }
        #expect(split.isEmpty, "\(split.prefix(10))")
    }
}
