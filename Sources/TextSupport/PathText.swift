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

    /// The components of `path` between slashes, empty ones left out (`/a//b/` → `a`, `b`), as
    /// `split(separator: "/")` gives them. An ASCII path is split byte by byte, where each byte is a character:
    /// splitting by characters cost every write about 20,000 instructions a call (issue 32).
    package static func components(of path: String) -> [Substring] {
        guard path.utf8.allSatisfy({ $0 < 0x80 }) else { return path.split(separator: "/") }
        var components: [Substring] = []
        var start = path.startIndex
        var index = start
        let end = path.endIndex
        while index < end {
            if path.utf8[index] == UInt8(ascii: "/") {
                if start < index { components.append(path[start..<index]) }
                start = path.utf8.index(after: index)
            }
            index = path.utf8.index(after: index)
        }
        if start < end { components.append(path[start..<end]) }
        return components
    }

    /// `/a/b/c` → `/a/b`; `/a` → `/`; `a` → ``; `/` → `/`; `` → ``; `//a//b` → `/a`.
    package static func parent(of path: String) -> String {
        let trimmed = withoutTrailingSlashes(path)
        if trimmed.isEmpty { return path.isEmpty ? "" : "/" }
        // In an ASCII path each byte is a character: the last slash is found byte by byte.
        let last = trimmed.utf8.allSatisfy { $0 < 0x80 }
            ? trimmed.utf8.lastIndex(of: UInt8(ascii: "/")) : trimmed.lastIndex(of: "/")
        guard let slash = last else { return "" }
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
