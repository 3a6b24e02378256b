#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import HealthCore

/// `--color`, `--ascii` and `--width` of the commands that draw (today, chart), resolved against the terminal.
enum TerminalOptions {
    static let specs: [OptionSpec] = [
        OptionSpec(name: "color", valueName: "when",
                   help: "Colour the output (values: auto, always, never; default: auto, colour when standard output is a terminal and $NO_COLOR is not set)."),
        OptionSpec(name: "ascii", valueName: nil, help: "Draw with plain ASCII characters instead of Unicode blocks."),
        OptionSpec(name: "width", valueName: "columns",
                   help: "Fit this many columns (default: $COLUMNS, else the terminal's width, else 80)."),
    ]

    /// The style the options, the environment and the terminal ask for.
    static func style(_ arguments: ParsedArguments, context: CommandContext, command: String) throws -> TerminalStyle {
        let outputIsTerminal = isatty(1) != 0
        let colour: Bool
        switch arguments.value("color") ?? "auto" {
        case "always": colour = true
        case "never": colour = false
        case "auto":
            let noColor = !(context.environment["NO_COLOR"] ?? "").isEmpty
            colour = outputIsTerminal && !noColor && context.environment["TERM"] != "dumb"
        case let other:
            throw UsageError(message: "The value '\(other)' is invalid for '--color <when>'; use auto, always or never", command: command)
        }
        var width = 80
        if let text = arguments.value("width") {
            guard let columns = Int(text), (20...1000).contains(columns) else {
                throw UsageError(message: "The value '\(text)' is invalid for '--width <columns>'; give a whole number from 20 to 1000", command: command)
            }
            width = columns
        } else if let columns = context.environment["COLUMNS"].flatMap(Int.init), columns > 0 {
            width = columns
        } else if outputIsTerminal, let columns = terminalColumns() {
            width = columns
        }
        return TerminalStyle(width: min(width, 1000), unicode: !arguments.has("ascii"), colour: colour)
    }

    /// The width of the terminal on standard output, from `TIOCGWINSZ`.
    private static func terminalColumns() -> Int? {
        var size = winsize()
        #if canImport(Glibc)
        let request = UInt(TIOCGWINSZ)
        #else
        let request = TIOCGWINSZ
        #endif
        guard ioctl(1, request, &size) == 0, size.ws_col > 0 else { return nil }
        return Int(size.ws_col)
    }
}
