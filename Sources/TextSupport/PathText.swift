/// The last component of a slash-separated path, and the path without it: what `NSString`'s
/// `lastPathComponent` and `deletingLastPathComponent` gave, without Foundation.
///
/// Trailing slashes are ignored (`a/b/` is `a/b`); `/` stays `/`; a parent's repeated slashes become one.
package enum PathText {
    /// `/a/b.jsonl` → `b.jsonl`; `b` → `b`; `/` → `/`; `` → ``.
    package static func lastComponent(of path: String) -> String {
        let trimmed = withoutTrailingSlashes(path)
        if trimmed.isEmpty { return path.isEmpty ? "" : "/" }
        guard let slash = trimmed.lastIndex(of: "/") else { return String(trimmed) }
        return String(trimmed[trimmed.index(after: slash)...])
    }

    /// `/a/b/c` → `/a/b`; `/a` → `/`; `a` → ``; `/` → `/`; `` → ``; `//a//b` → `/a`.
    package static func parent(of path: String) -> String {
        let trimmed = withoutTrailingSlashes(path)
        if trimmed.isEmpty { return path.isEmpty ? "" : "/" }
        guard let slash = trimmed.lastIndex(of: "/") else { return "" }
        // Usually no slash repeats: then the parent is the text before the last slash, as it is (every command that
        // writes takes this path; splitting and joining cost about 20,000 instructions a call).
        let head = trimmed[..<slash]
        if head.isEmpty { return "/" }
        if head.utf8.last != UInt8(ascii: "/") && !hasRepeatedSlash(head) { return String(head) }
        // As Strings, for the plain `joined` (see StringJoining.swift).
        let components = trimmed[..<slash].split(separator: "/").map(String.init).joined(separator: "/")
        return trimmed.hasPrefix("/") ? "/" + components : components
    }

    private static func hasRepeatedSlash(_ text: Substring) -> Bool {
        var previous: UInt8 = 0
        for byte in text.utf8 {
            if byte == UInt8(ascii: "/") && previous == byte { return true }
            previous = byte
        }
        return false
    }

    private static func withoutTrailingSlashes(_ path: some StringProtocol) -> Substring {
        var text = Substring(path)
        while text.hasSuffix("/") { text.removeLast() }
        return text
    }
}
