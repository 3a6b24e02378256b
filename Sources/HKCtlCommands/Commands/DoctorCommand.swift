import HealthCore
import TextSupport

/// `hkctl doctor [--repair]`: checks the whole store and reports; repairs what can be repaired without loss.
enum DoctorCommand: Command {
    static let name = "doctor"
    static let abstract = "Check the whole store for damage and implausible data; --repair fixes what it can."
    static let usage = "doctor [--repair]"
    static let arguments: [(label: String, help: String)] = []
    static let options: [OptionSpec] = [
        OptionSpec(name: "repair", valueName: nil,
                   help: "Move bad lines into quarantine.jsonl in the store (never deleted) and rebuild the change counter."),
        QuietOption.spec,
    ]
    static let discussion = """
        Errors are damage that makes commands fail (a line that is not a valid sample, an unreadable
        counter or journal, a file or folder of another user, a folder others can write to); each names
        its file and line. Warnings are well-formed data that looks wrong (a 300-hour sleep sample, 200000
        steps in a minute, a date decades ahead; their uuid is named) and files others may read; doctor
        never changes them. Each store document (settings, goals, characteristics, priorities,
        permissions, the compaction record) is read as its commands read it. With --quiet nothing is
        printed unless there are errors, which are listed on standard error. --repair does not start while a file or folder of another user, or a folder
        others can write to, is in the store (exit 77). A store with a newer format version is refused
        and never rewritten. Only the owner runs doctor: its findings show every source's samples.
        Exit status: 0 no errors (warnings may be listed), 65 errors found (or left after --repair),
        75 the store is busy, 77 the store folder is unsafe to use.
        """

    static func run(_ arguments: ParsedArguments, context: CommandContext) throws {
        if let extra = arguments.positionals.first {
            throw UsageError(message: "Unexpected argument '\(extra)'", command: name)
        }
        let repair = arguments.has("repair")
        // Like export, doctor reads every source's samples (its findings name uuids, values and files): owner only.
        try context.requireOwner(to: repair ? "repair the store" : "check the store")
        let doctor = StoreDoctor(store: context.store())
        let now = context.globals.time.now
        let report = repair ? try doctor.repair(now: now) : try doctor.check(now: now)
        print(report, context: context)
        if !report.errors.isEmpty { throw DoctorError.damaged(errors: report.errors.count) }
    }

    private static func print(_ report: DoctorReport, context: CommandContext) {
        let console = context.console
        if console.quiet {
            // --quiet drops the report, never the errors the failure line counts ("listed above"): standard error.
            for finding in report.errors { console.error(line(finding)) }
            return
        }
        switch context.globals.format {
        case .json:
            let findings = report.findings.map { finding in
                "{\"severity\":\"\(finding.severity.rawValue)\",\"file\":\(JSONText.quoted(finding.file)),"
                    + "\"line\":\(finding.line.map(String.init) ?? "null"),"
                    + "\"uuid\":\(finding.uuid.map { "\"\($0.lowercasedText)\"" } ?? "null"),"
                    + "\"message\":\(JSONText.quoted(CLIErrorWording.message(for: finding)))}"
            }
            console.line("{\"store\":\(report.storeExists),\"filesChecked\":\(report.filesChecked),\"linesChecked\":\(report.linesChecked),"
                + "\"errors\":\(report.errors.count),\"warnings\":\(report.warnings.count),"
                + "\"findings\":[\(findings.joined(separator: ","))],"
                + "\"repairs\":[\(report.repairs.map(JSONText.quoted).joined(separator: ","))]}")
        case .csv:
            console.line("severity,file,line,uuid,message")
            for finding in report.findings {
                let fields = [finding.severity.rawValue, finding.file, finding.line.map(String.init) ?? "",
                              finding.uuid?.lowercasedText ?? "", CLIErrorWording.message(for: finding)]
                console.line(fields.map(csvField).joined(separator: ","))
            }
        case .table:
            guard report.storeExists else {
                console.line("no store at \(context.globals.storePath) yet; nothing to check")
                return
            }
            for repair in report.repairs { console.line("repaired: \(repair)") }
            for finding in report.findings { console.line(line(finding)) }
            console.line("checked \(report.filesChecked) files, \(report.linesChecked) lines: "
                + "\(report.errors.count) error\(report.errors.count == 1 ? "" : "s"), "
                + "\(report.warnings.count) warning\(report.warnings.count == 1 ? "" : "s")")
        }
    }

    /// `error: FILE:LINE: uuid UUID: MESSAGE`, as the table lists a finding.
    private static func line(_ finding: DoctorFinding) -> String {
        let uuid = finding.uuid.map { " uuid \($0.lowercasedText):" } ?? ""
        return "\(finding.severity.rawValue): \(finding.location):\(uuid) \(CLIErrorWording.message(for: finding))"
    }

    private static func csvField(_ text: String) -> String {
        text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" }) ? "\"" + text.replacingEvery("\"", with: "\"\"") + "\"" : text
    }
}

/// The failure `hkctl doctor` exits with when the store has errors (after printing them).
enum DoctorError: Error, CustomStringConvertible {
    case damaged(errors: Int)

    var description: String {
        switch self {
        case let .damaged(errors):
            return "The store has \(errors) error\(errors == 1 ? "" : "s") (listed above); each says how to fix it ('hkctl doctor --repair' moves bad lines into quarantine; a value out of range, a document or a file of another user is fixed by hand, as its line says)."
        }
    }
}
