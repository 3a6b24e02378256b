import HealthCore
import TextSupport

/// One option a command accepts.
struct OptionSpec: Sendable {
    /// The long name without dashes (`store`).
    let name: String
    /// The value's placeholder (`dir`), or nil for a flag.
    let valueName: String?
    /// May be given more than once.
    var repeatable = false
    /// One sentence for help.
    let help: String
    /// The one-letter form (`q` for `-q`), if any.
    var short: Character? = nil

    /// `--store <dir>`, `--today` or `-q, --quiet`.
    var label: String { (short.map { "-\($0), " } ?? "") + (valueName.map { "--\(name) <\($0)>" } ?? "--\(name)") }
}

/// What a command line said: options with their values, flags and positional arguments.
struct ParsedArguments {
    var values: [String: [String]] = [:]
    var flags: Set<String> = []
    var positionals: [String] = []
    var wantsHelp = false

    func value(_ name: String) -> String? { values[name]?.last }
    func has(_ name: String) -> Bool { flags.contains(name) || values[name] != nil }
}

/// Parses arguments against option specs. It never prints or exits: problems are thrown as ``UsageError``.
enum ArgumentParser {
    /// Parses `arguments` for `command` with `options` (the command's and the global ones).
    static func parse(_ arguments: [String], options: [OptionSpec], command: String?) throws -> ParsedArguments {
        var parsed = ParsedArguments()
        var index = 0
        var onlyPositionals = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if onlyPositionals || !looksLikeOption(argument) {
                parsed.positionals.append(argument)
                continue
            }
            if argument == "--" { onlyPositionals = true; continue }
            if argument == "-h" || argument == "--help" { parsed.wantsHelp = true; continue }
            var name: String
            if argument.hasPrefix("--") {
                name = String(argument.dropFirst(2))
            } else if argument.count == 2, let spec = options.first(where: { $0.short == argument.last }) {
                name = spec.name
            } else {
                throw UsageError(message: "Unknown option '\(argument)'", command: command)
            }
            var inlineValue: String?
            if let equals = name.firstIndex(of: "=") {
                inlineValue = String(name[name.index(after: equals)...])
                name = String(name[..<equals])
            }
            guard let spec = options.first(where: { $0.name == name }) else {
                var message = "Unknown option '--\(name)'"
                if let suggestion = closest(name, among: options.map(\.name)) { message += "; did you mean '--\(suggestion)'?" }
                throw UsageError(message: message, command: command)
            }
            if let valueName = spec.valueName {
                let value: String
                if let inlineValue {
                    value = inlineValue
                } else {
                    guard index < arguments.count else {
                        throw UsageError(message: "Missing value for '--\(name) <\(valueName)>'", command: command)
                    }
                    value = arguments[index]
                    index += 1
                }
                if !spec.repeatable, parsed.values[name] != nil {
                    throw UsageError(message: "The option '--\(name)' was given twice", command: command)
                }
                parsed.values[name, default: []].append(value)
            } else {
                if inlineValue != nil {
                    throw UsageError(message: "The flag '--\(name)' does not take a value", command: command)
                }
                parsed.flags.insert(name)
            }
        }
        return parsed
    }

    /// `-5L` and `-2h` are values, not options.
    static func looksLikeOption(_ argument: String) -> Bool {
        guard argument.hasPrefix("-"), argument.count > 1 else { return false }
        let second = argument[argument.index(after: argument.startIndex)]
        return !(second.isNumber || second == ".")
    }

    /// The known name nearest to `name` by edit distance, if it is close.
    static func closest(_ name: String, among names: [String]) -> String? {
        NameSuggestions.closest(name, among: names)
    }
}
