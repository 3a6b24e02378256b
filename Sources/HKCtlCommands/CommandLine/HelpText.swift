import TextSupport

/// Help pages in the argument-parser layout: OVERVIEW, USAGE, ARGUMENTS, OPTIONS, SUBCOMMANDS; labels padded
/// to column 26, text wrapped at 80 columns.
enum HelpText {
    static let labelWidth = 26
    static let width = 80

    static func page(for command: any Command.Type) -> String {
        var text = wrap("OVERVIEW: \(command.abstract)", indent: 10) + "\n\n" + wrap("USAGE: hkctl \(command.usage)", indent: 13) + "\n"
        if !command.arguments.isEmpty {
            text += "\nARGUMENTS:\n" + command.arguments.map { row($0.label, $0.help) }.joined()
        }
        let globals = GlobalOptions.specs.map { spec -> OptionSpec in
            guard spec.name == "format" else { return spec }
            let help = "Output format (values: \(command.formats.joined(separator: ", ")); default: \(command.formats[0]))."
            return OptionSpec(name: spec.name, valueName: spec.valueName, help: help)
        }
        text += "\nOPTIONS:\n" + (command.options + globals).map { row($0.label, $0.help) }.joined()
        text += row("-h, --help", "Show help information.")
        if !command.discussion.isEmpty { text += "\n" + reflow(command.discussion) + "\n" }
        return text
    }

    /// Rewraps prose paragraphs (unindented lines) at ``width``; indented lines (examples, tables) keep their
    /// own lines and are only wrapped if too long.
    static func reflow(_ text: String) -> String {
        var output: [String] = []
        var paragraph: [String] = []
        func flush() {
            if !paragraph.isEmpty { output.append(wrap(paragraph.joined(separator: " "), indent: 0)) }
            paragraph = []
        }
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            let indent = line.prefix { $0 == " " }.count
            if line.isEmpty || indent > 0 {
                flush()
                output.append(line.isEmpty ? "" : wrap(line, indent: indent))
            } else {
                paragraph.append(line)
            }
        }
        flush()
        return output.joined(separator: "\n")
    }

    /// `line` wrapped at ``width`` columns on spaces; continuation lines start with `indent` spaces.
    static func wrap(_ line: String, indent: Int) -> String {
        guard line.count > width else { return line }
        let leading = String(line.prefix { $0 == " " })
        var lines: [String] = []
        var current = leading
        for word in line.dropFirst(leading.count).split(separator: " ", omittingEmptySubsequences: false) {
            let atStart = current.count == leading.count && lines.isEmpty || current.allSatisfy { $0 == " " }
            if !atStart && current.count + 1 + word.count > width {
                lines.append(current)
                current = String(repeating: " ", count: indent) + word
            } else {
                current += atStart ? String(word) : " " + word
            }
        }
        lines.append(current)
        return lines.joined(separator: "\n")
    }

    static func root(commands: [any Command.Type], version: String) -> String {
        var text = "OVERVIEW: hkctl \(version): log and read health data (water, steps, weight, sleep) with HealthKit's model.\n\n"
        text += "USAGE: hkctl [--store <dir>] [--format <format>] <subcommand> ...\n\nOPTIONS:\n"
        text += GlobalOptions.specs.map { row($0.label, $0.help) }.joined()
        text += row("--version", "Show the version.") + row("-h, --help", "Show help information.")
        text += "\nSUBCOMMANDS:\n" + commands.map { row($0.name, $0.abstract) }.joined()
        text += row("help", "Show help for a subcommand.")
        text += "\n  See 'hkctl help <subcommand>' for detailed help.\n"
        return text
    }

    /// One two-column row: `  label` padded to column 26, then the wrapped help.
    static func row(_ label: String, _ help: String) -> String {
        let indent = String(repeating: " ", count: labelWidth)
        var lines: [String] = []
        var current = ""
        for word in help.split(separator: " ") {
            if !current.isEmpty && labelWidth + current.count + 1 + word.count > width {
                lines.append(current)
                current = String(word)
            } else {
                current += current.isEmpty ? String(word) : " " + word
            }
        }
        lines.append(current)
        let head = "  " + label
        var text: String
        if head.count < labelWidth {
            text = head + String(repeating: " ", count: labelWidth - head.count) + lines[0] + "\n"
        } else {
            text = head + "\n" + indent + lines[0] + "\n"
        }
        for line in lines.dropFirst() { text += indent + line + "\n" }
        return text
    }
}
