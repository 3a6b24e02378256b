import HealthCore
import HKCtlSupport
import TextSupport

/// What completion scripts and the man page know about a command, read from its help (``Command``): so every
/// command in ``HKCtl/commands`` appears in them without further work.
struct CommandReference {
    /// What an option's value is.
    enum ValueKind: Equatable {
        /// A flag: no value.
        case none
        /// Anything (a time, a number, a name): nothing to complete.
        case free
        /// One of these words.
        case words([String])
        /// A type name.
        case type
        /// A unit string.
        case unit
        /// A file or a folder.
        case path
        /// Known only at completion time (zone names, the sources of a type): the script asks
        /// `hkctl completions candidates` (``CompletionCandidates``).
        case asked
    }

    struct Option {
        let name: String
        let help: String
        let value: ValueKind
        /// The one-letter form (`q`), if any.
        var short: Character? = nil

        /// How the option is typed: `--name`, and `-q` too when it has a short form.
        var spellings: [String] { ["--" + name] + (short.map { ["-\($0)"] } ?? []) }
    }

    let name: String
    let abstract: String
    let options: [Option]
    /// Positional words: literal words of the usage line (`set`, `priority`), the names of workouts and correlations
    /// where the command takes them, then type names when it takes `<type>`.
    var words: [String]
    var takesType: Bool
    /// Whether its positional words may depend on earlier ones or on the store (`add workout <activity>`,
    /// `sources priority <type> <source>`, `config set <key> <value>`): the script asks ``CompletionCandidates`` first.
    var asksForWords: Bool { ["add", "sources", "config"].contains(name) }

    /// The names of workouts, blood pressure and food each command takes where a type goes (`CompositeNames`).
    static let compositeNames: [String: [String]] = [
        "add": ["workout", "blood-pressure", "food"], "list": ["workouts", "blood-pressure", "food"],
        "delete": ["workouts", "blood-pressure", "food"], "stats": ["workouts", "blood-pressure"],
        "chart": ["workouts"], "trend": ["workouts"], "types": ["workouts"], "sources": ["workouts"],
    ]

    /// The reference of `command`, with the global options added.
    init(_ command: any Command.Type) {
        name = command.name
        abstract = command.abstract
        options = (command.options + GlobalOptions.specs).map { spec in
            Option(name: spec.name, help: spec.help,
                   value: spec.name == "format" ? .words(command.formats) : CommandReference.valueKind(spec), short: spec.short)
        }
        words = CommandReference.literalWords(command.usage, name: command.name) + (CommandReference.compositeNames[command.name] ?? [])
        takesType = command.usage.contains("<type>")
    }

    /// The reference of `command` with the types it completes narrowed: `goal` offers only the types that take a goal.
    init(_ command: any Command.Type, catalogue: SampleTypeCatalogue) {
        self.init(command)
        if command.name == "goal" {
            words += catalogue.types.filter(Goals.acceptsGoal).map(\.name)
            takesType = false
        }
    }

    /// The `help` pseudo-command: its words are the command names.
    init(helpFor commands: [any Command.Type]) {
        name = "help"
        abstract = "Show help for a subcommand."
        options = [Option(name: "man", help: "Print the manual page (roff).", value: .none)]
        words = commands.map { $0.name }
        takesType = false
    }

    static func valueKind(_ spec: OptionSpec) -> ValueKind {
        guard let valueName = spec.valueName else { return .none }
        switch valueName {
        case "type": return .type
        case "unit": return .unit
        case "file", "path", "dir": return .path
        case "activity": return .words(shellSafe(CompletionCandidates.activityNames))
        case "zone": return .asked
        case "name" where spec.name == "only-source": return .asked
        default:
            guard let range = spec.help.firstRange(ofText: "values: ") else { return .free }
            let list = spec.help[range.upperBound...].prefix { $0 != ";" && $0 != ")" }
            return .words(list.split(separator: ",").map { $0.trimmingSpaces() })
        }
    }

    /// Plain lower-case words of a usage line that are not option values: `config [list | get <key>]` → list, get.
    static func literalWords(_ usage: String, name: String) -> [String] {
        var words: [String] = []
        var afterOption = false
        for token in usage.split(separator: " ") {
            if afterOption {
                afterOption = false
                if !"[(|".contains(token.first ?? " ") { continue }
            }
            let stripped = token.trimming(where: { "[]()".unicodeScalars.contains($0) })
            if stripped.hasPrefix("-") { afterOption = true; continue }
            for part in stripped.split(separator: "|").map(String.init)
            where part != name && part != "options" && !part.isEmpty && !words.contains(part)
                && part.allSatisfy({ $0.isLowercase || $0 == "-" }) {
                words.append(part)
            }
        }
        return words
    }

    /// Every type name in the catalogue.
    static func typeNames(_ catalogue: SampleTypeCatalogue) -> [String] { catalogue.types.map(\.name) }

    /// Unit strings and aliases of every quantity type that are safe to offer in a shell (no glob or quote characters).
    static func unitNames(_ catalogue: SampleTypeCatalogue) -> [String] {
        shellSafe(catalogue.types.flatMap(unitNames))
    }

    /// The unit strings and aliases `type` accepts (none for a category type), in `hkctl units` order.
    static func unitNames(of type: SampleType) -> [String] {
        guard let canonical = type.canonicalUnit else { return [] }
        return HealthUnit.spellings(compatibleWith: canonical) + QuantityInput.aliases(for: type).map(\.alias)
    }

    /// The units each type accepts, for `--unit` after a type: the names a type answers to on the command line (short
    /// name, identifier, identifier without its prefix), grouped by identical unit lists so that a script names each
    /// list once.
    static func unitsByType(_ catalogue: SampleTypeCatalogue) -> [(types: [String], units: [String])] {
        var groups: [(types: [String], units: [String])] = []
        for type in catalogue.types {
            let names = shellSafe([type.name, type.identifier, type.shortIdentifier])
            let units = shellSafe(unitNames(of: type))
            if let index = groups.firstIndex(where: { $0.units == units }) { groups[index].types += names } else { groups.append((names, units)) }
        }
        return groups
    }

    /// `names` without repeats and without the ones a shell would read as more than a word (glob, quote or space
    /// characters).
    static func shellSafe(_ names: [String]) -> [String] {
        var seen = Set<String>()
        let safe = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_/%.^-".unicodeScalars)
        return names.filter { name in
            name.unicodeScalars.allSatisfy { safe.contains($0) } && seen.insert(name).inserted
        }
    }
}
