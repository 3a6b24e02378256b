import HealthCore
import TextSupport

/// `hkctl types`: the catalogue.
enum TypesCommand: Command {
    static let name = "types"
    static let abstract = "List the sample types hkctl knows."
    static let usage = "types [workouts | mood] [--format <format>]"
    static let arguments: [(label: String, help: String)] = [
        ("workouts", "List the workout activity types instead (HealthKit names, raw values, short forms)."),
        ("mood", "List the words of 'add mood' instead: valences, labels and what a mood is about (HealthKit's state of mind)."),
    ]
    static let options: [OptionSpec] = []

    static func run(_ arguments: ParsedArguments, context: CommandContext) throws {
        if let topic = arguments.positionals.first, CompositeNames.isWorkout(topic), arguments.positionals.count == 1 {
            return WorkoutTypesOutput.print(context: context)
        }
        if let topic = arguments.positionals.first, CompositeNames.isMood(topic), arguments.positionals.count == 1 {
            return MoodOutput(context: context).printVocabulary()
        }
        if let extra = arguments.positionals.first {
            throw UsageError(message: "Unexpected argument '\(extra)'; 'hkctl types workouts' lists workout activities, 'hkctl types mood' the words of a mood", command: name)
        }
        let types = context.catalogue.types
        func unit(_ type: SampleType) -> String? { type.canonicalUnit?.unitString }
        func aggregation(_ type: SampleType) -> String { type.aggregation?.name ?? "category" }
        switch context.globals.format {
        case .json:
            let objects = types.map { type in
                "{\"name\":\(JSONText.quoted(type.name)),\"identifier\":\(JSONText.quoted(type.identifier)),"
                    + "\"unit\":\(unit(type).map(JSONText.quoted) ?? "null"),\"aggregation\":\(JSONText.quoted(aggregation(type))),"
                    + "\"kind\":\"\(type.kind.rawValue)\",\"examples\":[\(type.examples.map(JSONText.quoted).joined(separator: ","))]}"
            }
            context.console.line("[" + objects.joined(separator: ",") + "]")
        case .csv:
            context.console.line("name,identifier,unit,aggregation")
            for type in types { context.console.line(CSV.row([type.name, type.identifier, unit(type) ?? "", aggregation(type)])) }
        case .table:
            var table = TableWriter(headers: ["NAME", "IDENTIFIER", "UNIT", "AGGREGATION"])
            for type in types { table.add([type.name, type.identifier, unit(type) ?? "-", aggregation(type)]) }
            for line in table.lines() { context.console.line(line) }
        }
    }
}
