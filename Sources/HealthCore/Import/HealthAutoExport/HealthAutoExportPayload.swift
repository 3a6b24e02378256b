/// A parsed Health Auto Export payload: the JSON the iOS app Health Auto Export writes to files or POSTs to a URL,
/// `{"data": {"metrics": [...], "workouts": [...], "stateOfMind": [...], ...}}`.
///
/// Parsing reads the whole payload and checks its JSON before anything is stored, so an unusable payload changes
/// nothing. Points that cannot be read (a missing date, a value that is not a number) do not make it unusable: the
/// import refuses them one by one and lists them in its receipt. Store it with
/// ``HealthImporter/importHealthAutoExport(_:receivedThrough:)``.
public struct HealthAutoExportPayload: Sendable {
    /// The payload's name (a file name, or what the caller calls a pushed body), for messages.
    public let name: String
    private(set) var parsed: HAEParser.Parsed
    /// The aggregation recognised from the dates (``HAEPeriod``).
    let level: HAEPeriod
    /// The offsets the payload's dates are written with (``HAEPeriod/alignment(of:offset:offsets:)``).
    let offsets: Set<Int>
    /// The dates that start a day, sorted, in a per-day payload (empty otherwise).
    let dayStarts: [Date]
    /// Per type, the forms (``HAEWritePlan/form(of:)``: the payload's level, `none` for readings at their own times)
    /// its metrics' points take in the whole payload, sleep aside: forms a payload holds side by side never stand for
    /// each other, in whichever batches of the import they come.
    let forms: [String: Set<String>]
    /// Per metric (in ``HAEParser/Parsed/metrics`` order): its points' dates, first to last, and whether they only grow;
    /// nil for sleep and for a metric without dated points (``HAELaterSendings`` looks for points sent twice in them).
    let dateSpans: [HAEDateSpan?]

    /// Parses a payload.
    ///
    /// - Parameters:
    ///   - bytes: The JSON, UTF-8.
    ///   - name: What the payload is called in messages and in the default source.
    /// - Throws: ``ImportError/invalidHealthAutoExport(_:line:column:reason:)`` for invalid JSON or JSON that is not
    ///   a Health Auto Export payload, with the line and column.
    public init(bytes: [UInt8], name: String) throws {
        try self.init(bytes: bytes, name: name, pieceSize: HAEPointsAhead.standardPieceSize)
    }

    /// ``init(bytes:name:)``, its points read ahead a piece of `pieceSize` bytes at a time (``HAEPointsAhead``; for
    /// tests).
    init(bytes: [UInt8], name: String, pieceSize: Int) throws {
        let parsed: HAEParser.Parsed
        do {
            parsed = try bytes.withUnsafeBufferPointer { buffer in
                var parser = HAEParser(buffer, pieceSize: pieceSize)
                return try parser.parse()
            }
        } catch let failure as JSONCursor.Failure {
            throw ImportError.invalidHealthAutoExport(name, line: failure.line, column: failure.column, reason: failure.reason)
        }
        self.init(parsed: parsed, name: name)
    }

    /// Parses the payload that `reader` streams (`size` bytes: a regular file's), holding only a window of its bytes
    /// at a time (``HAEByteWindow``) rather than the whole file beside its points. The result is that of
    /// ``init(bytes:name:)`` on the same bytes: when the streamed parse fails (invalid JSON, an element longer than the
    /// window, a file whose size changed), `whole` gives every byte again and they are parsed as one, so the
    /// failure reported and its line and column are the whole payload's.
    init(streaming reader: ByteReader, size: Int, name: String, sizes: HAEByteWindow.Sizes = .standard,
         pieceSize: Int = HAEPointsAhead.standardPieceSize, whole: () throws -> [UInt8]) throws {
        if let window = try HAEByteWindow(reader, size: size, sizes: sizes) {
            var parser = HAEParser(window: window, pieceSize: pieceSize)
            let parsed: HAEParser.Parsed?
            do { parsed = try parser.parse() } catch is JSONCursor.Failure { parsed = nil }
            if let parsed, window.exact {
                self.init(parsed: parsed, name: name)
                return
            }
        }
        try self.init(bytes: whole(), name: name, pieceSize: pieceSize)
    }

    private init(parsed: HAEParser.Parsed, name: String) {
        self.name = name
        self.parsed = parsed
        // Sleep per night is dated by its night, not by a period.
        let periodicIndices = parsed.metrics.indices.filter { parsed.metrics[$0].name != "sleep_analysis" }
        let periodic = periodicIndices.map { parsed.metrics[$0] }
        let dated: [[(date: Date, offset: Int)]] = periodic.map { $0.points.dates("date") }
        var spans = [HAEDateSpan?](repeating: nil, count: parsed.metrics.count)
        for (index, dates) in zip(periodicIndices, dated) { spans[index] = HAEDateSpan(dates) }
        dateSpans = spans
        // The metrics HAE aggregates by its setting decide the level; readings kept at their own times (blood
        // pressure, glucose, insulin, events, sessions) do not.
        let deciding = periodic.map { metric in
            guard let shape = HAEMetricKind.kind(of: metric.name)?.shape else { return true }
            return shape == .quantity || shape == .heartRate || shape == .standHour
        }
        level = HAEPeriod.payloadLevel(dated, deciding: deciding)
        offsets = Set(dated.joined().map(\.offset))
        let offsets = self.offsets
        dayStarts = level == .day
            ? Array(Set(dated.joined().filter { HAEPeriod.alignment(of: $0.date, offset: $0.offset, offsets: offsets) == .day }.map(\.date))).sorted()
            : []
        forms = HealthAutoExportPayload.forms(periodic, dated: dated, level: level, offsets: offsets)
    }

    /// The forms each type's points take (``forms``): a point whose date starts a period of the payload's level
    /// stands for that period, any other (a reading with seconds, an element without a `date`) is an instant.
    private static func forms(_ metrics: [HAEMetric], dated: [[(date: Date, offset: Int)]], level: HAEPeriod,
                              offsets: Set<Int>) -> [String: Set<String>] {
        var forms: [String: Set<String>] = [:]
        let threshold = min(level, .day)
        for (metric, dates) in zip(metrics, dated) where metric.points.count > 0 {
            var instants = dates.count < metric.points.count || level == .instant, periods = false
            if level > .instant {
                for date in dates {
                    if HAEPeriod.alignment(of: date.date, offset: date.offset, offsets: offsets) >= threshold {
                        periods = true
                    } else {
                        instants = true
                    }
                    if instants && periods { break }
                }
            }
            var found = Set<String>()
            if instants { found.insert(HAEPeriod.instant.name) }
            if periods { found.insert(level.name) }
            forms[HAEMetricKind.typeIdentifier(ofMetric: metric.name), default: []].formUnion(found)
        }
        return forms
    }

    /// The metrics, taken out of the payload (which then holds none): an import that owns the payload lets each
    /// metric's points go once they are stored.
    mutating func takeMetrics() -> [HAEMetric] {
        defer { parsed.metrics = [] }
        return parsed.metrics
    }

    /// The source of points without one (or with `null`): `Health Auto Export`, named after the program that wrote
    /// the payload, not after the file: a re-send of the same day in a file of another name (or pushed) must be the
    /// same source, or its points would count twice.
    public var defaultSource: String { HealthAutoExportPayload.defaultSourceName }

    /// `Health Auto Export`.
    public static let defaultSourceName = "Health Auto Export"

    /// The number of points in its metrics and of elements in its other arrays.
    public var pointCount: Int { parsed.metrics.reduce(0) { $0 + $1.points.count } + parsed.others.count }

    /// The metric names it holds (with points or not), in order.
    public var metricNames: [String] { parsed.metrics.map(\.name) }

    /// The aggregation the payload's dates show: `none`, `minute`, `hour`, `day` or `week`.
    public var aggregation: String { level.name }

    /// Every sample type the payload would write: the HealthKit identifiers of its metrics with points (a blood
    /// pressure's correlation and both its members), and for what has no HealthKit type yet (an unknown metric name,
    /// the other arrays) `HealthAutoExport_<name>`; workouts are `HKWorkoutTypeIdentifier`, `stateOfMind`
    /// `HKDataTypeStateOfMind`. For authorization checks before
    /// storing.
    public var sampleTypeIdentifiers: Set<String> {
        var identifiers = Set<String>()
        for metric in parsed.metrics where !metric.points.isEmpty {
            guard let kind = HAEMetricKind.kind(of: metric.name) else {
                identifiers.insert(HAESampleBuilder.untypedPrefix + metric.name)
                continue
            }
            identifiers.insert(kind.identifier)
            if kind.shape == .bloodPressure {
                identifiers.insert(CorrelationType.systolic)
                identifiers.insert(CorrelationType.diastolic)
            }
        }
        for item in parsed.others {
            identifiers.insert(item.array == HAEWorkouts.array ? Workout.typeIdentifier
                : item.array == HAEStateOfMind.array ? StateOfMind.typeIdentifier : HAESampleBuilder.untypedPrefix + item.array)
        }
        return identifiers
    }
}
