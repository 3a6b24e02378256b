import HealthCore
import HKCtlSupport

/// The completions that depend on earlier words or on the store, which the scripts of ``CompletionScript`` ask for at
/// completion time (`hkctl completions candidates -- WORDS`): activities after `add workout`, source names after
/// `sources priority TYPE` and for `--only-source`, config keys and their values, zone names for `--tz`.
///
/// `WORDS` is the command line after `hkctl` up to, not including, the word being completed. An empty answer means
/// "nothing special here": the script then offers its own words. Nothing here fails: a store that cannot be read
/// gives no source names.
enum CompletionCandidates {
    /// The candidates for the word after `words`.
    static func candidates(after words: [String], commands: [any Command.Type], context: CommandContext) -> [String] {
        var specs = GlobalOptions.specs
        var command: (any Command.Type)?
        var positionals: [String] = []
        var storePath: String?
        var index = 0
        while index < words.count {
            let word = words[index]
            if word.hasPrefix("-") && word.count > 1 {
                let name = String(word.drop { $0 == "-" })
                guard let spec = specs.first(where: { $0.name == name || $0.short.map(String.init) == name }),
                      spec.valueName != nil else {
                    index += 1
                    continue
                }
                // The word being completed is this option's value.
                if index + 1 == words.count {
                    return optionValues(spec.name, type: positionals.first, command: command, storePath: storePath, context: context)
                }
                if spec.name == "store" { storePath = words[index + 1] }
                index += 2
                continue
            }
            if command == nil, let found = commands.first(where: { $0.name == word }) {
                command = found
                specs = found.options + GlobalOptions.specs
            } else if command != nil {
                positionals.append(word)
            } else {
                return []
            }
            index += 1
        }
        guard let command else { return [] }
        return positionalValues(command.name, positionals, storePath: storePath, context: context)
    }

    /// Values of `--option`: activities, zones, the sources of `type`.
    private static func optionValues(_ option: String, type: String?, command: (any Command.Type)?, storePath: String?,
                                     context: CommandContext) -> [String] {
        switch option {
        case "activity": return activityNames
        case "tz": return ["recorded"] + context.globals.zones.listedNames()
        case "only-source": return type.map { sourceNames(of: $0, storePath: storePath, context: context) } ?? []
        default: return []
        }
    }

    /// The word after `command`'s positional words `words`.
    private static func positionalValues(_ command: String, _ words: [String], storePath: String?, context: CommandContext) -> [String] {
        switch (command, words.count) {
        case ("add", 1) where CompositeNames.isWorkout(words[0]):
            return activityNames
        case ("sources", 2...) where words[0] == "priority":
            let listed = Set(words.dropFirst(2))
            return sourceNames(of: words[1], storePath: storePath, context: context).filter { !listed.contains($0) }
        case ("config", 1) where ["set", "get", "unset"].contains(words[0]):
            return Settings.keys(catalogue: context.catalogue) + (words[0] == "get" ? ["store"] : [])
        case ("config", 2) where words[0] == "set":
            if words[1] == "tz" { return [Settings.recordedZone] }
            guard words[1].hasPrefix("unit."), let type = try? context.catalogue.type(named: String(words[1].dropFirst(5))) else { return [] }
            return CommandReference.unitNames(of: type)
        default:
            return []
        }
    }

    /// Every activity name and short form `--activity` and `add workout` accept.
    static var activityNames: [String] {
        WorkoutActivityType.all.filter { !$0.isDeprecated }.flatMap { [$0.kebabName] + $0.aliases }
    }

    /// The sources that saved samples of the type named `typeName`, highest priority first; none when the type or
    /// the store cannot be read.
    private static func sourceNames(of typeName: String, storePath: String?, context: CommandContext) -> [String] {
        guard let type = try? context.catalogue.type(named: typeName) else { return [] }
        var globals = context.globals
        if let storePath { globals.storePath = storePath }
        let store = CommandContext(globals: globals, console: context.console, catalogue: context.catalogue).store()
        guard let priorities = try? store.sourcePriorities(),
              let summaries = try? SourceSummary.summaries(of: type, in: store, priority: priorities.priority(for: type.identifier))
        else { return [] }
        return summaries.map(\.source)
    }
}
