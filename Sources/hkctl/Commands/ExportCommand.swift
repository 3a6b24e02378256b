import HealthCore
import TextSupport

/// `hkctl export`: writes samples as jsonl, csv, json or Apple-Health-shaped XML.
enum ExportCommand: Command {
    static let name = "export"
    static let abstract = "Export samples as jsonl, csv, json or Apple Health XML."
    static let usage = "export [--type <type> ...] [--from <time>] [--to <time>] [--format jsonl|csv|json|healthxml] [--out <file>]"
    static let arguments: [(label: String, help: String)] = []
    static let formats = ExportFormat.allCases.map(\.rawValue)
    static let options: [OptionSpec] = [
        OptionSpec(name: "type", valueName: "type", repeatable: true,
                   help: "Export only this type (a name such as steps, or a HealthKit identifier); repeatable (default: every stored type)."),
        OptionSpec(name: "out", valueName: "file", help: "Write to this file, replaced only when the export is complete; a link is followed, a device or FIFO written in place (default: standard output)."),
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
        """

    static func run(_ arguments: ParsedArguments, context: CommandContext) throws {
        if let extra = arguments.positionals.first {
            throw UsageError(message: "Unexpected argument '\(extra)'", command: name)
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
        if let path = arguments.value("out") {
            output = try ExportOutput(path: path, outside: store)
        } else {
            context.console.flush()
            output = ExportOutput(descriptor: 1)
        }
        do {
            let summary = try exporter.export(types: types, interval: interval, format: format,
                                              exportDate: context.globals.time.now, to: output)
            if let path = arguments.value("out") {
                context.console.note("Exported \(summary.total) sample\(summary.total == 1 ? "" : "s") to \(path).")
            }
        } catch ExportError.outputClosed {
            return  // `hkctl export | head`: the reader has what it wanted.
        }
    }
}
