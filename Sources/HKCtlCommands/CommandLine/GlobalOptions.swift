import HealthCore
import HKCtlSupport
import TextSupport

/// How data is printed on standard output.
enum OutputFormat: String, CaseIterable {
    case table, json, csv
}

/// The options every command takes, resolved against the environment.
struct GlobalOptions {
    static let specs: [OptionSpec] = [
        OptionSpec(name: "store", valueName: "dir",
                   help: "The store folder (default: $HKCTL_STORE, else $XDG_DATA_HOME/hkctl, else ~/.local/share/hkctl)."),
        OptionSpec(name: "format", valueName: "format", help: "Output format (values: table, json, csv; default: table)."),
        OptionSpec(name: "source", valueName: "name", help: "The source writing samples (default: $HKCTL_SOURCE, else hkctl)."),
        OptionSpec(name: "tz", valueName: "zone", help: "Time zone for reading and showing times (default: the system zone); 'recorded' shows each sample in the zone it was recorded in."),
        OptionSpec(name: "now", valueName: "time", help: "Pin \"now\" for relative times (default: $HKCTL_NOW, else the clock)."),
    ]

    var storePath: String
    /// The format for commands whose formats are table, json and csv.
    var format: OutputFormat
    /// The `--format` value as given (already checked against the command's formats), for commands with others.
    var formatName: String
    var source: String
    var time: TimeContext
    var lockTimeout: TimeInterval
    /// `--tz recorded`: samples are shown in the zone they were recorded in (days and nights still follow ``time``).
    var recordedZones: RecordedZones? = nil
    /// Whether `--tz` or `$HKCTL_TZ` chose the zone (then the store's `tz` setting does not apply).
    var zoneWasGiven = false
    /// The tz database the zones come from.
    var zones: ZoneDatabase = .system(environment: [:])
    /// The name the tz database found ``time``'s zone by while the options were resolved (`$TZ`, `--tz`), if it was
    /// found by the very name it carries: then ``recordingZoneName`` need not read and parse the zone's file again.
    var zoneFoundByName: String? = nil

    /// The zone `add` records a sample in (`HKTimeZone`): the zone of ``time`` when the tz database knows it by name
    /// (not a bare POSIX rule from `$TZ`).
    var recordingZoneName: String? {
        let name = time.timeZone.identifier
        if name == zoneFoundByName { return name }
        return zones.zone(named: name) == nil ? nil : name
    }

    /// Resolves the options from the parsed command line and the environment.
    static func resolve(_ arguments: ParsedArguments, environment: [String: String], clock: Date, command: String,
                        formats: [String] = ["table", "json", "csv"],
                        zones database: ZoneDatabase? = nil) throws -> GlobalOptions {
        guard let storePath = storePath(explicit: arguments.value("store"), environment: environment) else {
            throw UsageError(message: "No store folder: pass --store <dir> or set $HKCTL_STORE", command: command)
        }
        let formatText = arguments.value("format") ?? formats[0]
        guard formats.contains(formatText) else {
            throw UsageError(message: "The value '\(formatText)' is invalid for '--format <format>'; use \(formats.joined(separator: ", "))", command: command)
        }
        let format = OutputFormat(rawValue: formatText) ?? .table
        let zones = database ?? ZoneDatabase.system(environment: environment)
        let zone: ZoneRules
        var recorded: RecordedZones?
        var foundByName: String?
        if let name = arguments.value("tz") ?? environment["HKCTL_TZ"], name != "recorded" {
            guard let named = zones.zone(named: name) else { throw TypedTimeError.unknownTimeZone(name) }
            zone = named
            foundByName = name
        } else {
            // `--tz recorded` reads and groups times in the system zone and shows each sample in its own.
            if arguments.value("tz") ?? environment["HKCTL_TZ"] == "recorded" { recorded = RecordedZones(database: zones) }
            // A zone name in `$TZ` is looked up here, as `current(environment:)` would first do, so that the name it
            // was found by is known; anything else (a path, a POSIX rule, no `$TZ`) is left to `current`.
            if let name = zoneName(inTZ: environment["TZ"]), let named = zones.zone(named: name, offsets: false) {
                zone = named
                foundByName = name
            } else {
                zone = zones.current(environment: environment)
            }
        }
        var now = clock
        if let pinned = arguments.value("now") ?? environment["HKCTL_NOW"].flatMap({ $0.isEmpty ? nil : $0 }) {
            now = try ISODate.parse(pinned) ?? TimeExpression.parse(pinned, in: TimeContext(now: clock, timeZone: zone)).date
        }
        now = Date(timeIntervalSince1970: (now.timeIntervalSince1970 * 1000).rounded(.down) / 1000)
        let source = arguments.value("source") ?? environment["HKCTL_SOURCE"].flatMap { $0.isEmpty ? nil : $0 } ?? "hkctl"
        if let problem = TextRules.sourceNameProblem(source) {
            throw UsageError(message: "The value of --source (or $HKCTL_SOURCE) is invalid: \(problem)", command: command)
        }
        var timeout = 10.0
        if let text = environment["HKCTL_LOCK_TIMEOUT"], !text.isEmpty {
            guard let value = StrictNumber.parse(text), value >= 0, value <= 86_400 else {
                throw UsageError(message: "$HKCTL_LOCK_TIMEOUT is '\(text.prefix(40))'; set it to seconds between 0 and 86400", command: command)
            }
            timeout = value
        }
        var time = TimeContext(now: now, timeZone: zone)
        if let day = WeekStart.firstWeekday(environment: environment) { time.calendar.firstWeekday = day }
        return GlobalOptions(storePath: storePath, format: format, formatName: formatText, source: source,
                             time: time, lockTimeout: max(0, timeout), recordedZones: recorded,
                             zoneWasGiven: (arguments.value("tz") ?? environment["HKCTL_TZ"]) != nil, zones: zones,
                             zoneFoundByName: foundByName)
    }

    /// The zone name in a `$TZ` value (`Europe/Paris`, `:Europe/Paris`), or nil when it holds none to look up by name
    /// (unset, empty, or a file path).
    static func zoneName(inTZ value: String?) -> String? {
        guard let value else { return nil }
        var name = Substring(value)
        if name.first == ":" { name = name.dropFirst() }
        guard !name.isEmpty, name.first != "/" else { return nil }
        return String(name)
    }

    /// The store folder: `--store`, else `$HKCTL_STORE`, else the per-user default (``StoreLocation/userDefault(environment:)``);
    /// nil when nothing names one (no `HOME` either).
    static func storePath(explicit: String?, environment: [String: String]) -> String? {
        if let explicit, !explicit.isEmpty { return explicit }
        if let path = environment["HKCTL_STORE"], !path.isEmpty { return path }
        return StoreLocation.userDefault(environment: environment)
    }
}
