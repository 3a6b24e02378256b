import HealthCore
import TextSupport

/// `hkctl me [set KEY VALUE | unset KEY]`: characteristics (date of birth, sex, blood type, skin type).
enum MeCommand: Command {
    static let name = "me"
    static let abstract = "Show or set characteristics: date of birth, biological sex, blood type, skin type."
    static let usage = "me [set <key> <value> | unset <key>]"
    static let arguments: [(label: String, help: String)] = [
        ("<key>", "date-of-birth, biological-sex, blood-type or skin-type."),
        ("<value>", "1988-04-02; female, male, other; A+ … O-; I … VI."),
    ]
    static let options: [OptionSpec] = [QuietOption.spec]
    static let discussion = """
        Characteristics are facts, not samples, as in HealthKit: 'hkctl add blood-type ...' is refused.

        EXAMPLES:
          hkctl me set date-of-birth 1988-04-02
          hkctl me set blood-type A+
          hkctl me --format json
        """

    static func run(_ arguments: ParsedArguments, context: CommandContext) throws {
        let words = arguments.positionals
        let store = context.store()
        switch words.first {
        case nil:
            // As the acting source may read them: another source sees only what the owner allowed it to read.
            try show(try context.healthStore().characteristics(), context: context)
        case "set":
            try context.requireOwner(to: "change characteristics")
            guard words.count == 3 else {
                throw UsageError(message: words.count < 3 ? "Missing expected argument '<\(words.count < 2 ? "key" : "value")>'" : "Unexpected argument '\(words[3])'", command: name)
            }
            var probe = Characteristics()
            try probe.set(words[1], to: words[2], now: context.globals.time.now)
            try store.updateDocument("characteristics.json", initial: Characteristics()) {
                try $0.set(words[1], to: words[2], now: context.globals.time.now)
            }
            try show(try store.document("characteristics.json", default: Characteristics()), context: context)
        case "unset":
            try context.requireOwner(to: "change characteristics")
            guard words.count == 2 else { throw UsageError(message: "Missing expected argument '<key>'", command: name) }
            var probe = Characteristics()
            try probe.unset(words[1])
            try store.updateDocument("characteristics.json", initial: Characteristics()) { try $0.unset(words[1]) }
            try show(try store.document("characteristics.json", default: Characteristics()), context: context)
        case let word?:
            throw UsageError(message: "Unexpected argument '\(word)'; use 'set' or 'unset'", command: name)
        }
    }

    private static func show(_ me: Characteristics, context: CommandContext) throws {
        switch context.globals.format {
        case .json:
            let fields = me.entries.map { "\(JSONText.quoted($0.key)):\($0.value.map(JSONText.quoted) ?? "null")" }
            context.console.line("{" + fields.joined(separator: ",") + "}")
        case .csv:
            context.console.line("key,value")
            for entry in me.entries { context.console.line(CSV.row([entry.key, entry.value ?? ""])) }
        case .table:
            var table = TableWriter(headers: ["", ""])
            for entry in me.entries { table.add([entry.key, entry.value ?? "not set"]) }
            for line in table.lines().dropFirst() { context.console.line(line) }
        }
    }
}
