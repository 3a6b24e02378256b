import HealthCore
import TextSupport

/// `hkctl export`: writes samples as jsonl, csv, json or Apple-Health-shaped XML, or one workout's route as GPX.
enum ExportCommand: Command {
    static let name = "export"
    static let abstract = "Export samples as jsonl, csv, json or Apple Health XML, or a workout's route as GPX."
    static let usage = "export [--type <type> ...] [--from <time>] [--to <time>] [--format jsonl|csv|json|healthxml|gpx] [--workout <uuid>] [--out <file>]"
    static let arguments: [(label: String, help: String)] = []
    static let formats = ExportFormat.allCases.map(\.rawValue) + ["gpx"]
    static let options: [OptionSpec] = [
        OptionSpec(name: "type", valueName: "type", repeatable: true,
                   help: "Export only this type (a name such as steps, or a HealthKit identifier); repeatable (default: every stored type)."),
        OptionSpec(name: "workout", valueName: "uuid",
                   help: "With --format gpx: the workout whose route to write (its uuid, or a unique prefix of at least 8 digits)."),
        OptionSpec(name: "out", valueName: "file", help: "Write to this file, replaced only when the export is complete; a link is followed, a device or FIFO written in place (default, or '-': standard output)."),
    ] + RangeOptions.specs + [QuietOption.spec]
    static let discussion = """
        FORMATS:
          jsonl      one JSON object per line, lossless (UUIDs, sources, devices,
                     metadata); 'hkctl import' reads it back (the default)
          csv        columns type, start, end, value, unit, source, device, uuid,
                     metadata (a JSON object)
          json       the jsonl objects as one JSON array
          healthxml  XML shaped like the Health app's export.xml, which
                     'hkctl import' and tools made for Apple's exports read
          gpx        one workout's route (--workout UUID) as GPX 1.1: one track
                     named after the activity, a point per location with its
                     elevation and UTC time; map and training tools open it.
                     A workout without a route is an error (exit 66)

        Samples are written type by type, in time order within a type. Quantities
        keep the unit they were recorded in; times carry the --tz offset.

        --out never destroys what is at the path: a file is written under a
        temporary name and renamed into place when complete (a new file gets mode
        0600, a replaced one keeps its mode); a symbolic link is followed and the
        file it leads to replaced, the link kept; a device or FIFO is written in
        place, and /dev/stdout, /dev/stderr or /dev/fd/N through hkctl's own
        descriptor, as the shell would (>> appends). A folder, a link to nothing,
        a link loop or a path inside the store is refused (exit 73).

        EXAMPLES:
          hkctl export --format csv --type steps --year --out steps.csv
          hkctl export --out backup.jsonl
          hkctl export --format healthxml --out export.xml
          hkctl export --format gpx --workout 3f2a9c01 --out run.gpx
        """

    static func run(_ arguments: ParsedArguments, context: CommandContext) throws {
        if let extra = arguments.positionals.first {
            throw UsageError(message: "Unexpected argument '\(extra)'", command: name)
        }
        if context.globals.formatName == "gpx" { return try runGPX(arguments, context: context) }
        if arguments.has("workout") {
            throw UsageError(message: "--workout is for --format gpx ('hkctl export --format gpx --workout UUID')", command: name)
        }
        guard let format = ExportFormat(rawValue: context.globals.formatName) else {
            throw UsageError(message: "The value '\(context.globals.formatName)' is invalid for '--format <format>'; use \(formats.joined(separator: ", "))", command: name)
        }
        try context.requireOwner(to: "export the store")  // an export holds every source's samples
        let store = context.store()
        let exporter = SampleExporter(store: store, catalogue: context.catalogue, timeZone: context.globals.time.timeZone)
        var types: [String]?
        if let names = arguments.values["type"] {
            let stored = Set(try exporter.storedTypeIdentifiers())
            types = try names.map { name in
                do {
                    return try context.type(name).identifier
                } catch {
                    // Types kept generically by an import (HKWorkoutTypeIdentifier) are not in the catalogue.
                    if stored.contains(name) { return name }
                    throw error
                }
            }
        }
        let range = try RangeOptions.range(arguments, context: context.globals.time, command: name) ?? .allTime
        let interval = try range.interval(in: context.globals.time)
        let output: ExportOutput
        if let path = outPath(arguments) {
            output = try ExportOutput(path: path, outside: store)
        } else {
            context.console.flush()
            output = ExportOutput(descriptor: 1)
        }
        do {
            let summary = try exporter.export(types: types, interval: interval, format: format,
                                              exportDate: context.globals.time.now, to: output)
            if let path = outPath(arguments) {
                context.console.note("Exported \(summary.total) sample\(summary.total == 1 ? "" : "s") to \(path).")
            }
        } catch ExportError.outputClosed {
            return  // `hkctl export | head`: the reader has what it wanted.
        }
    }

    /// The file `--out` names; nil for standard output (no `--out`, or `--out -` as `chart --svg -` reads it).
    private static func outPath(_ arguments: ParsedArguments) -> String? {
        guard let path = arguments.value("out"), path != "-" else { return nil }
        return path
    }

    /// `--format gpx --workout UUID`: the workout's route as GPX.
    private static func runGPX(_ arguments: ParsedArguments, context: CommandContext) throws {
        guard let text = arguments.value("workout") else {
            throw UsageError(message: "--format gpx writes one workout's route: add --workout UUID (uuids: 'hkctl list workouts --format json')", command: name)
        }
        for option in ["type", "from", "to"] + RangeOptions.specs.map(\.name) where arguments.has(option) {
            throw UsageError(message: "--\(option) does not apply to --format gpx, which writes one workout's route", command: name)
        }
        try context.requireOwner(to: "export the store")
        let store = context.store()
        let access = try context.healthStore()
        let uuid = try UUIDArgument.resolve([text], store: store, access: access)[0]
        guard let sample = try store.samples(withUUIDs: [uuid]).first, let workout = Workout(sample: sample) else {
            throw GPXError.notAWorkout(uuid.lowercasedText)
        }
        let document = try GPXWriter.document(for: workout)
        let output: ExportOutput
        if let path = outPath(arguments) {
            output = try ExportOutput(path: path, outside: store)
        } else {
            context.console.flush()
            output = ExportOutput(descriptor: 1)
        }
        do {
            try output.write(document)
            try output.finish()
            if let path = outPath(arguments) {
                let count = workout.detail.route?.locations.count ?? 0
                context.console.note("Exported the route of workout \(uuid.lowercasedText) (\(count) point\(count == 1 ? "" : "s")) to \(path).")
            }
        } catch ExportError.outputClosed {
            return
        }
    }
}
