#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import HealthCore
import TextSupport

/// `hkctl import PATH`: imports an Apple Health export (zip, XML, or hkctl jsonl; `-` for stdin), or Health Auto
/// Export JSON (a file or a folder of them).
enum ImportCommand: Command {
    static let name = "import"
    static let abstract = "Import an Apple Health export (export.zip or export.xml), an hkctl jsonl export, or Health Auto Export JSON."
    static let usage = "import <path> [--dry-run] [--progress] [--replace-characteristics] [--all-files] [--format table|json]"
    static let arguments: [(label: String, help: String)] = [
        ("<path>", "export.zip, export.xml, an hkctl jsonl export, a Health Auto Export .json file or a folder of them, or '-' for standard input."),
    ]
    static let formats = ["table", "json"]
    static let options: [OptionSpec] = [
        OptionSpec(name: "dry-run", valueName: nil, help: "Report what would be added without writing anything."),
        OptionSpec(name: "progress", valueName: nil, help: "Show progress on standard error even when it is not a terminal."),
        OptionSpec(name: "batch-size", valueName: "n", help: "Samples saved together, all or nothing (default: 20000)."),
        OptionSpec(name: "replace-characteristics", valueName: nil,
                   help: "Take the export's date of birth, sex, blood type and skin type where they differ from the store's."),
        OptionSpec(name: "all-files", valueName: nil,
                   help: "For a folder: read its files even when its last import stored nothing and nothing changed since."),
        QuietOption.spec,
    ]
    static let discussion = """
        The export is streamed, so its size does not matter. Types hkctl knows become
        typed samples; other records, workouts, correlations and activity summaries
        are kept generically, so nothing is lost. Importing the same export again, or
        a newer one that contains it, adds nothing twice. Records that cannot be read
        are listed with their line numbers on standard error and the exit status is
        then 65; everything else is imported. An interrupted import can simply be run
        again. Characteristics (date of birth, sex, blood type, skin type) the store
        does not have are added; where the store's differ they are kept, and the
        summary says so, unless --replace-characteristics is given.

        Health Auto Export JSON (from the iOS app, a file or a folder of them read
        in name order) is recognised by its content. Its metrics become HealthKit
        types; what cannot be typed yet is kept. Re-sending the same days adds
        nothing: a point whose value changed replaces the stored one (the summary
        says added, replaced, unchanged, kept and refused), and a point already
        covered by an imported export.zip is not stored twice. A folder imported
        again is not read at all when its last import stored nothing and neither
        its files nor the store changed since (--all-files reads it).

        EXAMPLES:
          hkctl import ~/Downloads/export.zip
          hkctl import export.xml --dry-run
          unzip -p export.zip apple_health_export/export.xml | hkctl import -
          hkctl import ~/Sync/HealthAutoExport -q
        """

    static func run(_ arguments: ParsedArguments, context: CommandContext) throws {
        guard let path = arguments.positionals.first else {
            throw UsageError(message: "Missing expected argument '<path>'", command: name)
        }
        if arguments.positionals.count > 1 {
            throw UsageError(message: "Unexpected argument '\(arguments.positionals[1])'", command: name)
        }
        var batchSize = 20_000
        if let text = arguments.value("batch-size") {
            guard let value = Int(text), value > 0 else {
                throw UsageError(message: "The value '\(text)' is invalid for '--batch-size <n>'; give a whole number above 0", command: name)
            }
            batchSize = value
        }
        // The owner imports anything; another source only its own samples, of types it may write.
        let target: SampleStore = context.globals.source == AuthorizationState.ownerSource
            ? context.store(recording: .import) : try context.healthStore(recording: .import)
        let importer = HealthImporter(store: target, catalogue: context.catalogue,
                                      dryRun: arguments.flags.contains("dry-run"), batchSize: batchSize,
                                      replaceCharacteristics: arguments.flags.contains("replace-characteristics"),
                                      zoneRules: context.globals.time.timeZone,
                                      rereadsUnchangedFiles: arguments.flags.contains("all-files"))
        // --quiet drops the progress a terminal gets by default; --progress asks for it explicitly and keeps it.
        let terminal = isatty(2) != 0
        let bar = ProgressBar(terminal: terminal, enabled: (terminal && !context.console.quiet) || arguments.flags.contains("progress"))
        let receipt: ImportReceipt
        do {
            receipt = try importer.importFile(atPath: path) { bar.update($0) }
        } catch let StoreError.writeFailed(file, reason) where !arguments.flags.contains("dry-run") {
            // The batch that failed was taken back, not the ones before it: an import stores batch by batch.
            throw ImportError.batchNotSaved(file, reason: reason)
        }
        if context.globals.formatName == "json" {
            context.console.line(receipt.json)
        } else {
            ReceiptText.table(receipt, path: path, catalogue: context.catalogue, console: context.console)
        }
        if receipt.hasProblems {
            for problem in receipt.problems {
                context.console.error("line \(problem.line): \(problem.type.map { $0 + ": " } ?? "")\(problem.reason)")
            }
            if receipt.problemCount > receipt.problems.count {
                context.console.error("... and \(receipt.problemCount - receipt.problems.count) more")
            }
            throw ImportError.recordsRejected(receipt.problemCount, dryRun: receipt.dryRun, records: receipt.totals.rejected)
        }
    }
}

/// Renders an import receipt.
private enum ReceiptText {
    static func table(_ receipt: ImportReceipt, path: String, catalogue: SampleTypeCatalogue, console: Console) {
        var heading = receipt.dryRun ? "Dry run of " : "Imported "
        heading += path == "-" ? "standard input" : path
        if let member = receipt.archiveMember { heading += " (\(member))" }
        if let date = receipt.exportDate { heading += ", exported \(ISODate.format(date, in: .gmt))" }
        console.line(heading + (receipt.dryRun ? "; nothing was written." : "."))
        // A Health Auto Export payload can replace what an earlier one stored; its wording is the app's world's. An
        // export's table gets REPLACED (records whose greater sync version replaced a stored sample) only when some did.
        let resend = receipt.inputKind == .healthAutoExport
        let replacing = !resend && receipt.totals.replaced > 0
        var table = resend
            ? TableWriter(headers: ["TYPE", "ADDED", "REPLACED", "UNCHANGED", "KEPT", "REFUSED"], rightAligned: [1, 2, 3, 4, 5])
            : TableWriter(headers: ["TYPE", "ADDED", "PRESENT", "GENERIC", "REJECTED"] + (replacing ? ["REPLACED"] : []),
                          rightAligned: replacing ? [1, 2, 3, 4, 5] : [1, 2, 3, 4])
        func row(_ label: String, _ counts: ImportReceipt.Counts) -> [String] {
            let figures = resend ? [counts.added, counts.replaced, counts.alreadyPresent, counts.keptGenerically, counts.rejected]
                : [counts.added, counts.alreadyPresent, counts.keptGenerically, counts.rejected] + (replacing ? [counts.replaced] : [])
            return [label] + figures.map { NumberFormatting.human(Double($0), fractionDigits: 0) }
        }
        let labelled = receipt.counts.map { (label: catalogue.type(identifier: $0.key)?.name ?? $0.key, counts: $0.value) }
        for (label, counts) in labelled.sorted(by: { $0.label < $1.label }) { table.add(row(label, counts)) }
        table.add(row("total", receipt.totals))
        for line in table.lines() { console.line(line) }
        if resend, receipt.totals.covered > 0 {
            console.line("\(receipt.totals.covered) unchanged point\(receipt.totals.covered == 1 ? " was" : "s were") already covered by other samples "
                         + "of their time (an Apple Health export's, or a night's in the payload's other sleep form): not stored twice.")
        }
        if resend, receipt.totals.sentAgain > 0 {
            console.line("\(receipt.totals.sentAgain) unchanged point\(receipt.totals.sentAgain == 1 ? " is" : "s are") sent again later in "
                         + "the same input: each is stored once, as its last sending.")
        }
        if receipt.unreadFiles > 0 {
            let files = receipt.unreadFiles == 1 ? "its file" : "its \(receipt.unreadFiles) files"
            console.line("Nothing was read: the folder's last import stored nothing, and neither \(files) nor the store changed since "
                         + "(--all-files reads \(receipt.unreadFiles == 1 ? "it" : "them")).")
        }
        if receipt.supersededHealthAutoExport > 0 {
            console.line("Removed \(receipt.supersededHealthAutoExport) Health Auto Export sample\(receipt.supersededHealthAutoExport == 1 ? "" : "s") "
                         + "that this export's samples cover (not counted twice).")
        }
        if receipt.missingRouteFileCount > 0 {
            let count = receipt.missingRouteFileCount
            console.line("\(count) workout\(count == 1 ? "'s route was" : "s' routes were") not found (\(receipt.missingRouteFiles.joined(separator: ", "))"
                         + "\(count > receipt.missingRouteFiles.count ? ", …" : "")): the workout\(count == 1 ? " is" : "s are") kept without "
                         + "\(count == 1 ? "it" : "them"). To keep routes, import export.zip (or export.xml beside its workout-routes folder) before, "
                         + "or after deleting, the workouts stored without them.")
        }
        CharacteristicsReceiptText.table(receipt, console: console)
        let skipped = receipt.skippedElements.merging(receipt.skippedAttributes) { $0 + $1 }
        if !skipped.isEmpty {
            let counts = skipped.sorted { $0.key < $1.key }.map { "\($0.key) ×\($0.value)" }
            console.line("Skipped (not understood): " + counts.joined(separator: ", "))
        }
    }
}

/// The progress line on standard error: bytes, records, rate and time left; redrawn in place on a terminal,
/// a line every few seconds when forced with `--progress` elsewhere, silent otherwise.
private final class ProgressBar {
    private let terminal: Bool
    private let enabled: Bool
    private let started = Date()
    private var lastDrawn = Date.distantPast

    /// - Parameters:
    ///   - terminal: Whether standard error is a terminal (the line is redrawn in place).
    ///   - enabled: Whether to show progress at all.
    init(terminal: Bool, enabled: Bool) {
        self.terminal = terminal
        self.enabled = enabled
    }

    func update(_ progress: ImportProgress) {
        guard enabled else { return }
        let now = Date()
        if progress.finished {
            if terminal { write("\r\u{1B}[K") } else { write(text(progress, now: now) + "\n") }
            return
        }
        guard now.timeIntervalSince(lastDrawn) >= (terminal ? 0.2 : 2) else { return }
        lastDrawn = now
        write(terminal ? "\r\u{1B}[K" + text(progress, now: now) : text(progress, now: now) + "\n")
    }

    private func text(_ progress: ImportProgress, now: Date) -> String {
        let elapsed = max(now.timeIntervalSince(started), 0.001)
        let rate = Double(progress.bytesRead) / elapsed
        var parts: [String] = []
        if let total = progress.totalBytes, let fraction = progress.fraction {
            let width = 20
            let filled = Int(fraction * Double(width))
            parts.append("[" + String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled) + "] "
                         + NumberFormatting.decimal(fraction * 100, fractionDigits: 0, width: 3) + "%")
            parts.append("\(megabytes(progress.bytesRead))/\(megabytes(total))")
            if rate > 0, !progress.finished {
                let left = Int(Double(total - progress.bytesRead) / rate)
                parts.append("ETA \(left / 60):" + NumberFormatting.zeroPadded(left % 60, width: 2))
            }
        } else {
            parts.append(megabytes(progress.bytesRead))
        }
        parts.append(NumberFormatting.human(Double(progress.records), fractionDigits: 0) + " records")
        parts.append(NumberFormatting.decimal(rate / 1_000_000, fractionDigits: 1) + " MB/s")
        return parts.joined(separator: "  ")
    }

    private func megabytes(_ bytes: Int) -> String { NumberFormatting.decimal(Double(bytes) / 1_000_000, fractionDigits: 1) + " MB" }

    private func write(_ text: String) {
        ProcessEntry.writeAll(2, Array(text.utf8))
    }
}
