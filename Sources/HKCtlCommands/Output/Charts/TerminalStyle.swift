import HealthCore
import TextSupport

/// How text for a terminal is drawn: its width, Unicode block characters or plain ASCII, colour or none.
///
/// The renderers never ask the terminal; ``TerminalOptions`` decides (width from `$COLUMNS` or the tty, colour from
/// `--color`, `NO_COLOR` and whether output is a terminal) and passes a style. Invariant: `width >= 40`.
struct TerminalStyle: Equatable, Sendable {
    /// Columns available; lines never exceed it (except a word longer than the line).
    var width: Int
    /// Block characters (`█▌▁`) when true, `#`, `|` and `-` when false.
    var unicode: Bool
    /// ANSI colour escapes when true.
    var colour: Bool

    /// Creates a style; widths below 40 are raised to 40.
    init(width: Int = 80, unicode: Bool = true, colour: Bool = false) {
        self.width = max(40, width)
        self.unicode = unicode
        self.colour = colour
    }

    /// An ANSI colour (SGR code).
    enum Colour: String, Sendable {
        case red = "31", green = "32", yellow = "33", blue = "34", magenta = "35", cyan = "36", dim = "2", bold = "1"
    }

    /// `text` in `colour`, or `text` unchanged when colour is off.
    func paint(_ text: String, _ colour: Colour?) -> String {
        guard self.colour, let colour, !text.isEmpty else { return text }
        return "\u{1B}[\(colour.rawValue)m\(text)\u{1B}[0m"
    }

    /// `lines` as they are, or in ASCII mode with the punctuation of titles and figures replaced (`·` by `,`,
    /// dashes by `-`).
    func finish(_ lines: [String]) -> [String] {
        guard !unicode else { return lines }
        return lines.map {
            $0.replacingEvery(" · ", with: ", ").replacingEvery("–", with: "-")
                .replacingEvery("−", with: "-")
        }
    }

    /// The Unicode character, or its ASCII fallback.
    func glyph(_ unicode: String, _ ascii: String) -> String { self.unicode ? unicode : ascii }
}

/// A line built from pieces of text, each with its own colour; adjacent pieces of the same colour are painted once.
struct StyledLine {
    private(set) var pieces: [(text: String, colour: TerminalStyle.Colour?)] = []

    init(_ text: String = "", _ colour: TerminalStyle.Colour? = nil) {
        if !text.isEmpty { pieces.append((text, colour)) }
    }

    /// Columns taken (one per character).
    var count: Int { pieces.reduce(0) { $0 + $1.text.count } }

    mutating func append(_ text: String, _ colour: TerminalStyle.Colour? = nil) {
        guard !text.isEmpty else { return }
        if let last = pieces.last, last.colour == colour {
            pieces[pieces.count - 1].text += text
        } else {
            pieces.append((text, colour))
        }
    }

    mutating func pad(to width: Int) { append(String(repeating: " ", count: max(0, width - count))) }

    /// The line with colour escapes where the style wants them, trailing spaces removed.
    func render(_ style: TerminalStyle) -> String {
        var trimmed = pieces
        while let last = trimmed.last {
            let text = last.text.droppingTrailingSpaces()
            if text.isEmpty { trimmed.removeLast(); continue }
            trimmed[trimmed.count - 1].text = text
            break
        }
        return trimmed.map { style.paint($0.text, $0.colour) }.joined()
    }
}
