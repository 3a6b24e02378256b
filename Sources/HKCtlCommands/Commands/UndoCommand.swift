import HealthCore
import TextSupport

/// `hkctl undo [--dry-run] [--yes]`: takes back the acting source's last add, import or delete.
enum UndoCommand: Command {
    static let name = "undo"
    static let abstract = "Take back this source's last add, import, delete or edit (again: the one before)."
    static let usage = "undo [--type <type>] [--dry-run] [--yes]"
    static let arguments: [(label: String, help: String)] = []
    static let formats = ["table", "json"]
    static let options: [OptionSpec] = [
        OptionSpec(name: "type", valueName: "type", help: "Take back the newest operation that wrote this type (weight, sleep, ...), even if others came after it."),
        OptionSpec(name: "dry-run", valueName: nil, help: "Show what would be undone; change nothing."),
        OptionSpec(name: "yes", valueName: nil, help: "Undo without asking (required when stdin is not a terminal)."),
        QuietOption.spec,
    ]
    static let discussion = """
        Undo first shows what it will undo, then asks on a terminal. Undoing an add or an
        import deletes the samples it saved that are still there, leaving tombstones, so
        'hkctl changes' and syncing clients learn of it. Undoing a delete restores the
        samples it deleted as new samples with new uuids (as in HealthKit, a deleted
        sample never comes back under its uuid), unless 'hkctl compact' has removed them
        from disk. Samples deleted or brought back since are left as they are and counted.

        Each undo takes back the newest operation not undone yet, so running it again
        undoes the one before; an undo itself cannot be undone. Only what this source
        (--source, $HKCTL_SOURCE, else the owner 'hkctl') did is undone. Settings, goals,
        permissions and the characteristics an import set are not operations: undo
        leaves them. Without an operation left it exits 66; when stdin is not a terminal
        it needs --yes (else exit 64, nothing changed).

        With --type TYPE it takes back the newest operation that wrote samples of that type,
        leaving newer operations of other types as they are ('hkctl undo --type weight' after
        logging weight, then water).

        EXAMPLES:
          hkctl undo --dry-run
          hkctl undo --type weight
          hkctl undo
          hkctl undo --yes --format json
        """

    static func run(_ arguments: ParsedArguments, context: CommandContext) throws {
        if let extra = arguments.positionals.first {
            throw UsageError(message: "Unexpected argument '\(extra)'", command: name)
        }
        let store = context.store()
        let source = context.globals.source
        let type = try arguments.value("type").map { try context.type($0) }
        guard let plan = try store.undoPlan(source: source, touching: type?.identifier) else {
            if let type { throw UndoError.nothingOfTypeToUndo(source: source, type: type.name) }
            throw UndoError.nothingToUndo(source: source)
        }
        let output = UndoOutput(context: context)
        let json = context.globals.formatName == "json"
        if arguments.has("dry-run") {
            context.console.line(json ? output.json(plan, done: false) : output.sentence(plan))
            return
        }
        let confirmed = arguments.has("yes")
        if !confirmed && !context.console.inputIsTerminal {
            // A script's undo must say so, as a range delete must: it may delete thousands of samples.
            throw UsageError(message: "Refusing to undo without confirmation (\(output.sentence(plan))): standard input "
                + "is not a terminal, so hkctl cannot ask; add --yes to undo it (--dry-run only shows it)", command: name)
        }
        if plan.kind == .delete || plan.kind == .replace { try context.healthStore().checkMaySave(plan.types + plan.rewritten.keys.sorted()) }
        if !json { context.console.line(output.sentence(plan)) }
        if !confirmed {
            // The question says what it is about even when --quiet keeps standard output empty.
            if context.console.quiet || json { context.console.error(output.sentence(plan)) }
            context.console.error("Undo it? [y/N] ")
            let answer = readLine()?.trimmingSpaces().lowercased() ?? ""
            guard answer == "y" || answer == "yes" else {
                context.console.note("Nothing undone.")
                return
            }
        }
        let done = try store.undo(source: source, expecting: plan.operation, touching: type?.identifier, now: context.globals.time.now)
        context.console.line(json ? output.json(done, done: true) : output.outcome(done))
    }
}
