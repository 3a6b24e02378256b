import HealthCore
import TextSupport

/// `hkctl sources [TYPE]` lists the sources that wrote samples; `hkctl sources priority TYPE [SOURCE ...]` shows
/// or sets the order in which they count when they overlap.
enum SourcesCommand: Command {
    static let name = "sources"
    static let abstract = "List the sources of each type, or show or set their priority order."
    static let usage = "sources [<type>] [--look-alikes] | sources priority <type> [<source> ...] [--reset]"
    static let arguments: [(label: String, help: String)] = [
        ("<type>", "water, steps, weight, sleep (or a HealthKit identifier); default: every type."),
        ("<source>", "Source names, highest priority first, as 'hkctl sources' lists them."),
    ]
    static let options: [OptionSpec] = [
        OptionSpec(name: "reset", valueName: nil, help: "With 'priority': forget the order and go back to the default."),
        OptionSpec(name: "look-alikes", valueName: nil,
                   help: "List samples that look alike (same type, source, times and value), to delete what an app wrote twice."),
        QuietOption.spec,
    ]
    static let discussion = """
        When two sources record the same time (a phone and a watch both counting steps),
        'hkctl stats' counts only the highest-priority source there, so nothing is
        counted twice. Sources you list come first, in your order; the others follow in
        the default order: watches and other wearables, then phones, then other apps,
        then values entered by hand (hkctl, Health). Only the owner (the default source
        'hkctl') may change the order.

        Samples that look alike (same type, source, start, end and value) are kept as
        HealthKit keeps them: an app may have saved a sample again with a new creation
        date, or an export may hold a record twice. 'hkctl sources --look-alikes' lists
        them with their uuids; 'hkctl delete <uuid>' removes the ones you do not want.

        Examples:
          hkctl sources
          hkctl sources --look-alikes active-energy
          hkctl sources priority steps "Jane's Apple Watch" "Jane's iPhone"
          hkctl sources priority steps --reset
        """

    static func run(_ arguments: ParsedArguments, context: CommandContext) throws {
        let words = arguments.positionals
        if words.first == "priority" {
            guard words.count >= 2 else {
                throw UsageError(message: "Missing expected argument '<type>'", command: name)
            }
            try priority(type: try context.type(words[1]), sources: Array(words.dropFirst(2)), arguments: arguments,
                         context: context)
            return
        }
        if arguments.has("reset") {
            throw UsageError(message: "'--reset' goes with 'hkctl sources priority <type>'", command: name)
        }
        if words.count > 1 { throw UsageError(message: "Unexpected argument '\(words[1])'", command: name) }
        if arguments.has("look-alikes") {
            // Every sample of every source is read: like export, for the owner only.
            try context.requireOwner(to: "compare every source's names")
            let finder = LookAlikeFinder(store: context.store(), catalogue: context.catalogue)
            let groups = try finder.groups(types: try words.first.map { [try context.type($0).identifier] })
            LookAlikeOutput(groups: groups, context: context).print()
            return
        }
        let types = try words.first.map { [try context.type($0)] } ?? context.catalogue.types
        let store = try context.healthStore()
        let priorities = try store.storage.sourcePriorities()
        var summaries: [SourceSummary] = []
        for type in types {
            summaries += try SourceSummary.summaries(of: type, in: store, priority: priorities.priority(for: type.identifier))
        }
        SourcesOutput(summaries: summaries, context: context).print()
    }

    private static func priority(type: SampleType, sources: [String], arguments: ParsedArguments,
                                 context: CommandContext) throws {
        let store = try context.healthStore()
        if arguments.has("reset") {
            guard sources.isEmpty else { throw UsageError(message: "Give either source names or '--reset'", command: name) }
            try context.requireOwner(to: "change source priorities")
            try store.storage.setSourcePriority(.automatic, for: type.identifier)
        } else if !sources.isEmpty {
            try context.requireOwner(to: "change source priorities")
            let priority: SourcePriority
            do {
                priority = try SourcePriority(sources)
            } catch let error as SourceError {
                throw UsageError(message: CLIErrorWording.message(for: error), command: name)
            } catch let error as TextError {
                throw UsageError(message: error.description, command: name)
            }
            let known = Set(try SourceSummary.summaries(of: type, in: store, priority: .automatic).map(\.source))
            for source in sources where !known.contains(source) {
                context.console.error("Warning: no \(type.name) samples from '\(source)' yet; check the spelling with the command: hkctl sources \(ShellQuoting.quote(type.name))")
            }
            try store.storage.setSourcePriority(priority, for: type.identifier)
        }
        let priority = try store.storage.sourcePriorities().priority(for: type.identifier)
        let summaries = try SourceSummary.summaries(of: type, in: store, priority: priority)
        SourcesOutput(summaries: summaries, context: context).printPriority(type: type, priority: priority)
    }
}

/// Prints source summaries and priority orders.
struct SourcesOutput {
    let summaries: [SourceSummary]
    let context: CommandContext

    private var zone: ZoneRules { context.globals.time.timeZone }
    private func date(_ value: Date) -> String { ISODate.format(value, in: zone) }

    private func typeName(_ identifier: String) -> String { context.catalogue.type(identifier: identifier)?.name ?? identifier }

    /// One row per (type, source).
    func print() {
        let console = context.console
        switch context.globals.format {
        case .json:
            let rows = summaries.map { row in
                "{\"type\":\(JSONText.quoted(row.typeIdentifier)),\"name\":\(JSONText.quoted(typeName(row.typeIdentifier))),"
                    + "\"source\":\(JSONText.quoted(row.source)),\"kind\":\"\(row.kind.name)\",\"priority\":\(row.rank),"
                    + "\"ranked\":\(row.isRanked),\"count\":\(row.sampleCount),\"first\":\"\(date(row.first))\",\"last\":\"\(date(row.last))\"}"
            }
            console.line("[" + rows.joined(separator: ",") + "]")
        case .csv:
            console.line(CSV.row(["type", "source", "kind", "priority", "count", "first", "last"]))
            for row in summaries {
                console.line(CSV.row([row.typeIdentifier, row.source, row.kind.name, String(row.rank), String(row.sampleCount),
                                      date(row.first), date(row.last)]))
            }
        case .table:
            if summaries.isEmpty {
                console.note("No samples yet.")
                return
            }
            var table = TableWriter(headers: ["TYPE", "PRIORITY", "SOURCE", "KIND", "SAMPLES", "FIRST", "LAST"], rightAligned: [1, 4])
            // One precision for both columns: to the minute, or to the second when any time has seconds.
            let times = Display.times(summaries.flatMap { [$0.first, $0.last] }, in: zone)
            for (index, row) in summaries.enumerated() {
                table.add([typeName(row.typeIdentifier), String(row.rank), row.source, row.kind.name,
                           NumberFormatting.human(Double(row.sampleCount), fractionDigits: 0),
                           times[2 * index], times[2 * index + 1]])
            }
            for line in table.lines() { console.line(line) }
        }
    }

    /// The effective order of one type: the stored list first, then the other sources in the default order.
    func printPriority(type: SampleType, priority: SourcePriority) {
        let console = context.console
        let present = Set(summaries.map(\.source))
        let absent = priority.order.filter { !present.contains($0) }
        switch context.globals.format {
        case .json:
            let order = summaries.map { row in
                "{\"source\":\(JSONText.quoted(row.source)),\"priority\":\(row.rank),\"ranked\":\(row.isRanked),\"kind\":\"\(row.kind.name)\",\"count\":\(row.sampleCount)}"
            }
            console.line("{\"type\":\(JSONText.quoted(type.identifier)),\"stored\":[" + priority.order.map(JSONText.quoted).joined(separator: ",")
                + "],\"order\":[" + order.joined(separator: ",") + "]}")
        case .csv:
            console.line(CSV.row(["priority", "source", "ranked", "kind", "count"]))
            for row in summaries {
                console.line(CSV.row([String(row.rank), row.source, String(row.isRanked), row.kind.name, String(row.sampleCount)]))
            }
        case .table:
            console.line(priority.order.isEmpty ? "\(type.title): default order (wearables, phones, apps, manual entry)"
                : "\(type.title): your order first, then the default order")
            var table = TableWriter(headers: ["PRIORITY", "SOURCE", "SET BY", "SAMPLES"], rightAligned: [0, 3])
            for row in summaries {
                table.add([String(row.rank), row.source, row.isRanked ? "you" : "default (\(row.kind.name))",
                           NumberFormatting.human(Double(row.sampleCount), fractionDigits: 0)])
            }
            if !summaries.isEmpty { for line in table.lines() { console.line(line) } }
            if !absent.isEmpty { console.line("Listed but without samples yet: " + absent.joined(separator: ", ")) }
        }
    }
}

/// `hkctl sources --look-alikes`: one row per sample, numbered by group.
struct LookAlikeOutput {
    let groups: [LookAlikeGroup]
    let context: CommandContext

    private var zone: ZoneRules { context.globals.time.timeZone }
    private func date(_ value: Date) -> String { ISODate.format(value, in: zone) }
    private func typeName(_ identifier: String) -> String { context.catalogue.type(identifier: identifier)?.name ?? identifier }

    private func value(_ sample: Sample) -> String {
        switch sample.value {
        case let .quantity(quantity): return NumberFormatting.json(quantity.value) + " " + quantity.unit.unitString
        case let .category(raw):
            return context.catalogue.type(identifier: sample.typeIdentifier)?.categoryValue(raw: raw)?.name ?? String(raw)
        case let .generic(text, unit): return unit.map { text + " " + $0 } ?? text
        }
    }

    func print() {
        let console = context.console
        switch context.globals.format {
        case .json:
            let objects = groups.map { group in
                let samples = group.samples.map { sample in
                    "{\"uuid\":\"\(sample.uuid.uuidString.lowercased())\",\"created\":\"\(date(sample.created))\","
                        + "\"sourceVersion\":\(sample.sourceVersion.map(JSONText.quoted) ?? "null"),"
                        + "\"device\":\(sample.device.map(JSONText.quoted) ?? "null"),\"metadata\":\(sample.metadata.count)}"
                }
                return "{\"type\":\(JSONText.quoted(group.typeIdentifier)),\"source\":\(JSONText.quoted(group.source)),"
                    + "\"start\":\"\(date(group.start))\",\"end\":\"\(date(group.end))\",\"value\":\(JSONText.quoted(value(group.samples[0]))),"
                    + "\"samples\":[" + samples.joined(separator: ",") + "]}"
            }
            console.line("[" + objects.joined(separator: ",") + "]")
        case .csv:
            console.line(CSV.row(["group", "type", "source", "start", "end", "value", "created", "sourceVersion", "device", "uuid"]))
            for (number, group) in groups.enumerated() {
                for sample in group.samples {
                    console.line(CSV.row([String(number + 1), sample.typeIdentifier, sample.source, date(sample.start), date(sample.end),
                                          value(sample), date(sample.created), sample.sourceVersion ?? "", sample.device ?? "",
                                          sample.uuid.uuidString.lowercased()]))
                }
            }
        case .table:
            if groups.isEmpty {
                console.note("No samples look alike.")
                return
            }
            var table = TableWriter(headers: ["GROUP", "TYPE", "SOURCE", "START", "VALUE", "CREATED", "VERSION", "UUID"], rightAligned: [0])
            for (number, group) in groups.enumerated() {
                for sample in group.samples {
                    table.add([String(number + 1), typeName(sample.typeIdentifier), sample.source, Display.time(sample.start, in: zone),
                               value(sample), Display.time(sample.created, in: zone), sample.sourceVersion ?? "",
                               sample.uuid.uuidString.lowercased()])
                }
            }
            for line in table.lines() { console.line(line) }
            let count = groups.reduce(0) { $0 + $1.samples.count }
            console.line("\(count) samples in \(groups.count) groups look alike; 'hkctl delete <uuid>' removes one.")
        }
    }
}
