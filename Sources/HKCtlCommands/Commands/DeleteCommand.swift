import HealthCore
import TextSupport

/// `hkctl delete UUID...` or `hkctl delete TYPE RANGE`: removes samples, leaving tombstones for syncing clients.
enum DeleteCommand: Command {
    static let name = "delete"
    static let showsSampleTimes = true
    static let abstract = "Delete samples by uuid, or every sample of a type in a range."
    static let usage = "delete <uuid> ... | delete <type> <range> | delete --last <type> [--source <name>] [--dry-run] [--yes]"
    static let arguments: [(label: String, help: String)] = [
        ("<uuid>", "The uuid of a sample, as list prints it, or a unique prefix of it (at least 8 digits, git-style)."),
        ("<type>", "Delete this type's samples in the range (a range is required)."),
    ]
    static let options: [OptionSpec] = RangeOptions.specs + [
        OptionSpec(name: "last", valueName: nil, help: "Delete the sample of <type> this source saved last (the newest by when it was saved)."),
        OptionSpec(name: "dry-run", valueName: nil, help: "List what would be deleted; delete nothing."),
        OptionSpec(name: "yes", valueName: nil, help: "Delete without asking (required for a range when stdin is not a terminal)."),
        QuietOption.spec,
    ]
    static let discussion = """
        Deleting leaves a tombstone (uuid, type, deletion time) that 'hkctl changes' reports, so syncing
        clients learn of it; 'hkctl compact' later removes deleted samples from disk. On a terminal hkctl
        asks before deleting unless --yes is given; a range delete that cannot ask (a script, a pipe)
        deletes nothing without --yes (exit 64). As in HealthKit, a source deletes only what it wrote:
        with --source S (or $HKCTL_SOURCE) only S's samples go; as the owner (the default source 'hkctl')
        any sample can be deleted. A uuid that names no sample, and --last when this source has no
        sample of the type, exit 66 (missing input); a range with nothing in it deletes nothing, exit 0.
        """

    /// Whether `word` could be meant as a type (letters, digits, `-`, `_`), so that an unknown one gets the type
    /// error with its suggestions rather than the uuid one.
    private static func isTypeLike(_ word: String) -> Bool {
        guard let first = word.unicodeScalars.first, first.properties.isAlphabetic else { return false }
        return word.unicodeScalars.contains { !$0.properties.isASCIIHexDigit && $0 != "-" }
    }

    /// The sample of `type` that `source` saved last: the newest by when it was saved, then by when it happened.
    private static func lastSaved(ofType type: SampleType, by source: String, in store: HealthStore) throws -> Sample? {
        var newest: Sample?
        let everything = DateInterval(start: DateRange.distantStart, end: DateRange.distantEnd)
        try store.forEachSample(ofType: type.identifier, overlapping: everything) { sample in
            guard sample.source == source else { return }
            // On a tie the sample read later (appended later) wins.
            if let best = newest, (best.created, best.start, best.end) > (sample.created, sample.start, sample.end) { return }
            newest = sample
        }
        return newest
    }

    static func run(_ arguments: ParsedArguments, context: CommandContext) throws {
        guard let first = arguments.positionals.first else {
            throw UsageError(message: "Missing expected argument '<uuid>' or '<type>'", command: name)
        }
        let store = context.store(recording: .delete)
        let time = context.globals.time
        let doomed: [Sample]
        let access = try context.healthStore()
        let mine = { (sample: Sample) in !access.deletable([sample]).isEmpty }
        // A type (then a range), else uuids; a word that is neither gets the type error (with its suggestions)
        // when it reads like a type name, the uuid error otherwise.
        let byRange = !UUIDArgument.looksLikeUUID(first) && ((try? context.type(first)) != nil || isTypeLike(first))
        if !byRange {
            if arguments.has("last") {
                throw UsageError(message: "--last takes a type ('hkctl delete --last weight'), not uuids", command: name)
            }
            let uuids = try UUIDArgument.resolve(arguments.positionals, store: store, access: access)
            doomed = try store.samples(withUUIDs: uuids).filter(mine)
            let missing = uuids.filter { uuid in !doomed.contains { $0.uuid == uuid } }
            if !missing.isEmpty { throw ChangeError.notFound(missing) }
        } else {
            let type = try context.type(first)
            if arguments.positionals.count > 1 {
                throw UsageError(message: "Unexpected argument '\(arguments.positionals[1])'", command: name)
            }
            if arguments.has("last") {
                if try RangeOptions.range(arguments, context: time, command: name) != nil {
                    throw UsageError(message: "Give either --last or a range, not both", command: name)
                }
                doomed = try lastSaved(ofType: type, by: context.globals.source, in: access).map { [$0] } ?? []
                // Like a uuid that names no sample (and `undo` with nothing left): missing input, exit 66.
                if doomed.isEmpty { throw ChangeError.nothingOfTypeToDelete(type: type.name, source: context.globals.source) }
            } else {
                guard let range = try RangeOptions.range(arguments, context: time, command: name) else {
                    throw UsageError(message: "Give a range to delete from (for example --today or --from/--to)", command: name)
                }
                doomed = try access.samples(ofType: type.identifier, overlapping: try range.interval(in: time)).filter(mine)
            }
        }
        if arguments.has("dry-run") || doomed.isEmpty {
            if doomed.isEmpty { context.console.note("Nothing to delete.") }
            try printSamples(doomed, store: access, context: context)
            return
        }
        if byRange && !context.console.inputIsTerminal && !arguments.has("yes") {
            // A script's range delete must say so: a mistyped range would otherwise delete at once.
            throw UsageError(message: "Refusing to delete \(doomed.count) sample\(doomed.count == 1 ? "" : "s") without "
                + "confirmation: standard input is not a terminal, so hkctl cannot ask; add --yes to delete them "
                + "(--dry-run lists them)", command: name)
        }
        if context.console.inputIsTerminal && !arguments.has("yes") {
            context.console.error("Delete \(doomed.count) sample\(doomed.count == 1 ? "" : "s")? [y/N] ")
            let answer = readLine()?.trimmingSpaces().lowercased() ?? ""
            guard answer == "y" || answer == "yes" else {
                context.console.note("Nothing deleted.")
                return
            }
        }
        // Only the doomed samples' types (and a correlation's members'): the delete's own look reads no other type's
        // files, and a uuid another type's sample happens to share is left alone.
        let types = Set(doomed.flatMap { [$0.typeIdentifier] + ($0.detail?.correlation?.members.map(\.typeIdentifier) ?? []) })
        let tombstones = try store.delete(uuids: doomed.map(\.uuid), now: time.now, ignoringMissing: byRange,
                                          source: access.isOwner ? nil : access.source, types: types)
        let zone = time.timeZone
        switch context.globals.format {
        case .json:
            context.console.line("[" + tombstones.map { ChangeOutput.tombstone($0, zone: zone) }.joined(separator: ",") + "]")
        case .csv:
            context.console.line("uuid,type,deletedAt")
            for tombstone in tombstones {
                context.console.line(CSV.row([tombstone.uuid.lowercasedText, tombstone.typeIdentifier,
                                              ISODate.format(tombstone.deletedAt, in: zone)]))
            }
        case .table:
            for tombstone in tombstones { context.console.line("deleted \(tombstone.uuid.lowercasedText)") }
            context.console.note("Deleted \(tombstones.count) sample\(tombstones.count == 1 ? "" : "s").")
        }
    }

    /// Dry run: the samples as list prints them, grouped by type (correlations with their members' values).
    private static func printSamples(_ samples: [Sample], store: SampleStore, context: CommandContext) throws {
        let byType = Dictionary(grouping: samples, by: \.typeIdentifier)
        if samples.isEmpty, context.globals.format == .json { context.console.line("[]") }
        for identifier in byType.keys.sorted() {
            if identifier == Workout.typeIdentifier {
                WorkoutOutput(context: context).print(byType[identifier]!.reversed().compactMap(Workout.init(sample:)), heartRates: [:])
            } else if let correlation = CorrelationType.identified(identifier) {
                // With their members' values, as list shows them (not '-/- mmHg').
                CorrelationOutput(context: context, type: correlation)
                    .print(try CorrelationQuery.correlations(of: byType[identifier]!.reversed(), in: store))
            }
            guard let type = context.catalogue.type(identifier: identifier) else { continue }
            SampleOutput.print(byType[identifier]!.reversed(), type: type, unit: type.displayUnit, context: context)
        }
    }
}
