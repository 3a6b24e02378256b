import HealthCore
import HKCtlSupport
import TextSupport

/// `hkctl goal [TYPE [AMOUNT | --unset]]`: list, show or set the daily goals that `today` and `chart` mark.
enum GoalCommand: Command {
    static let name = "goal"
    static let abstract = "Show or set daily goals: water, steps, sleep or another daily total."
    static let usage = "goal [<type> [<amount> | --unset]]"
    static let arguments: [(label: String, help: String)] = [
        ("<type>", "water, steps, sleep, or another cumulative type (active-energy)."),
        ("<amount>", "The daily goal: 2L, 64floz, 10000, 7.5h."),
    ]
    static let options: [OptionSpec] = [
        OptionSpec(name: "unset", valueName: nil, help: "Remove the goal of <type> (its default applies again)."),
        QuietOption.spec,
    ]
    static let discussion = """
        A goal is a daily total. Without one set, water aims at 2 L, steps at 10,000
        and sleep at 8 h asleep a night; other types have no goal until one is set.
        'hkctl today' shows progress against the goals and 'hkctl chart' marks them.
        Goals are kept in the store (goals.json).

        Examples:
          hkctl goal
          hkctl goal water 2.5L
          hkctl goal steps 8000
          hkctl goal sleep 7.5h
          hkctl goal water --unset
        """

    static func run(_ arguments: ParsedArguments, context: CommandContext) throws {
        let words = arguments.positionals
        let store = context.store()
        if words.count > 2 { throw UsageError(message: "Unexpected argument '\(words[2])'", command: name) }
        if arguments.has("unset") {
            guard words.count == 1 else {
                throw UsageError(message: words.isEmpty ? "Missing expected argument '<type>'" : "Give '--unset' or an amount, not both", command: name)
            }
            try context.requireOwner(to: "change goals")
            var probe = Goals()
            try probe.unset(words[0], catalogue: context.catalogue)
            try store.updateDocument("goals.json", initial: Goals()) { try $0.unset(words[0], catalogue: context.catalogue) }
        } else if words.count == 2 {
            try context.requireOwner(to: "change goals")
            var probe = Goals()
            try probe.set(words[0], to: words[1], catalogue: context.catalogue)
            try store.updateDocument("goals.json", initial: Goals()) {
                try $0.set(words[0], to: words[1], catalogue: context.catalogue)
            }
        }
        let goals = try store.document("goals.json", default: Goals())
        var entries = goals.entries(catalogue: context.catalogue)
        if let typeName = words.first {
            let type = try context.type(typeName)
            guard Goals.acceptsGoal(type) else { throw GoalError.notApplicable(type: type.name) }
            entries = entries.filter { $0.type == type }
        }
        print(entries, context: context)
    }

    /// Table: `water  2 L` with `(default)`; JSON: `{"water":{"value":2,"unit":"L","default":true}}`; CSV likewise.
    private static func print(_ entries: [(type: SampleType, goal: Quantity, isDefault: Bool)], context: CommandContext) {
        let console = context.console
        switch context.globals.format {
        case .json:
            let fields = entries.map {
                "\(JSONText.quoted($0.type.name)):{\"value\":\(NumberFormatting.json($0.goal.value)),"
                    + "\"unit\":\(JSONText.quoted($0.goal.unit.unitString)),\"default\":\($0.isDefault)}"
            }
            console.line("{" + fields.joined(separator: ",") + "}")
        case .csv:
            console.line("type,value,unit,default")
            for entry in entries {
                console.line(CSV.row([entry.type.name, NumberFormatting.json(entry.goal.value), entry.goal.unit.unitString,
                                      String(entry.isDefault)]))
            }
        case .table:
            var table = TableWriter(headers: ["TYPE", "GOAL", ""], rightAligned: [1])
            for entry in entries {
                let shown = entry.type.isSleepAnalysis ? ChartFormat.duration((try? entry.goal.value(in: .second())) ?? 0)
                    : ChartFormat.amount(entry.goal.value, unit: entry.goal.unit, type: entry.type)
                table.add([entry.type.name, shown, entry.isDefault ? "(default)" : ""])
            }
            for line in table.lines() { console.line(line.droppingTrailingSpaces()) }
        }
    }
}
