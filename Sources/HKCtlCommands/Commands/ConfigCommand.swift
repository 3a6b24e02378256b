import HealthCore
import HKCtlSupport
import TextSupport

/// `hkctl config set|get|unset|list`: preferences kept in the store.
enum ConfigCommand: Command {
    static let name = "config"
    static let abstract = "Show or change preferences, such as the unit a type is shown in."
    static let usage = "config [list | get <key> | set <key> <value> | unset <key>]"
    static let arguments: [(label: String, help: String)] = [
        ("<key>", "unit.<type>, for example unit.weight; tz; 'get store' prints the store in use (read-only)."),
        ("<value>", "A unit for that type, for example lb; for tz, 'recorded'."),
    ]
    static let options: [OptionSpec] = [QuietOption.spec]
    static let discussion = """
        'hkctl config set unit.weight lb' makes list and stats show weight in pounds unless --unit is given.
        Samples keep the unit they were entered in; only the display changes.
        'hkctl config set tz recorded' shows each sample (list, add, edit, delete, changes,
        watch) in the zone it was recorded in, as --tz recorded does, unless --tz or
        $HKCTL_TZ is given; days and ranges still follow the system zone.
        'hkctl config get store' prints the path of the store in use (from --store, $HKCTL_STORE or the
        default); it is not a setting and cannot be set.
        """

    static func run(_ arguments: ParsedArguments, context: CommandContext) throws {
        let words = arguments.positionals
        let store = context.store()
        let catalogue = context.catalogue
        func need(_ count: Int) throws {
            guard words.count == count else {
                throw UsageError(message: words.count < count ? "Missing expected argument" : "Unexpected argument '\(words[count])'", command: name)
            }
        }
        switch words.first ?? "list" {
        case "list":
            try need(words.isEmpty ? 0 : 1)
            let settings = try store.document("settings.json", default: Settings())
            switch context.globals.format {
            case .json:
                let fields = settings.entries.map { "\(JSONText.quoted($0.key)):\(JSONText.quoted($0.value))" }
                context.console.line("{" + fields.joined(separator: ",") + "}")
            case .csv, .table:
                if context.globals.format == .csv { context.console.line("key,value") }
                for entry in settings.entries {
                    context.console.line(context.globals.format == .csv ? CSV.row([entry.key, entry.value]) : "\(entry.key) = \(entry.value)")
                }
            }
        case "get":
            try need(2)
            if words[1] == "store" {
                context.console.line(context.store().path)
                return
            }
            let settings = try store.document("settings.json", default: Settings())
            context.console.line(try settings.value(words[1], catalogue: catalogue) ?? "")
        case "set":
            try context.requireOwner(to: "change settings")
            try need(3)
            var probe = Settings()
            try probe.set(words[1], to: words[2], catalogue: catalogue)
            try store.updateDocument("settings.json", initial: Settings()) { try $0.set(words[1], to: words[2], catalogue: catalogue) }
            context.console.line("\(words[1]) = \(try probe.value(words[1], catalogue: catalogue) ?? "")")
        case "unset":
            try context.requireOwner(to: "change settings")
            try need(2)
            var probe = Settings()
            try probe.unset(words[1], catalogue: catalogue)
            try store.updateDocument("settings.json", initial: Settings()) { try $0.unset(words[1], catalogue: catalogue) }
        case let word:
            throw UsageError(message: "Unexpected argument '\(word)'; use list, get, set or unset", command: name)
        }
    }
}
