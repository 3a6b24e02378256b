import TextSupport

/// A sample a Health Auto Export point becomes, before it is stored: its sync identifier (from metric, time and,
/// for shapes that write several samples a point, a part) and whether it is kept untyped.
struct HAECandidate: Sendable {
    var sample: Sample
    /// The members saved with a correlation (blood pressure).
    var members: [Sample] = []
    var generic: Bool
    /// `HKMetadataKeySyncIdentifier`, also in the sample's metadata.
    var syncIdentifier: String
    /// The line of the point in the payload.
    var line: Int
    /// The number of the point in its payload, as the import counts them (the samples of one point share it: a night
    /// summary's parts); 0 where nothing counts.
    var point = 0
    /// The metric name as HAE wrote it.
    var metric: String
    /// The type and sync identifier an earlier version stored the same element under (an untyped
    /// `HealthAutoExport_<array>` element now read as a typed sample): a stored sample of that type and identifier from
    /// a related source is replaced by this one, as one of its own identifier would be.
    var former: (type: String, syncIdentifier: String)? = nil
    /// Whether ``sample`` passed ``TextRules/problem(in:)`` as it is (its members are checked apart): the store need
    /// not check it again before it writes its line.
    var checked = false
    /// The later points of the same input that take this one away (``HAEGivingWay``), as alternatives (the day that
    /// holds it, the week that holds the day; the re-send that replaces it; the points that cut it to nothing): the
    /// plan gives way when all the points of one alternative are stored as sent.
    var givesWayTo: [[Sample]] = []
    /// Whether earlier finer points of the input hold this point already (``HAEGivingWay``): one file at a time it wrote
    /// nothing and met nothing, so it gives way whatever it meets of the store.
    var heldAlready = false
}

/// What one point of a metric gave: samples, or why it was refused.
enum HAEBuilt {
    case candidate(HAECandidate)
    case refused(type: String, line: Int, reason: String)
}

/// Turns the metrics of a payload into samples (see docs/IMPORT.md, "Health Auto Export files", for the table of
/// names, units and shapes).
///
/// - Every sample carries `HKMetadataKeySyncIdentifier` `HAE|<metric>|<start, UTC ISO 8601>[|part]` and
///   ``HAESampleBuilder/aggregationKey`` (the period the point covers: none, minute, hour, day, week); the store
///   gives it a `HKMetadataKeySyncVersion` when it is saved.
/// - The source is the point's `source` as written (several joined with `|` stay one source name: the figure is
///   HealthKit's merge of them, and belongs to none alone); a point without one, or with `null`, gets
///   ``defaultSource``.
/// - `%` values are written 0–100 by HAE (blood oxygen 99) and stored as HealthKit's fraction (0.99 %).
struct HAESampleBuilder {
    let catalogue: SampleTypeCatalogue
    /// The source of points without one: named after the payload.
    let defaultSource: String
    /// The zone a day or week period ends in (see ``HAEPeriod/end(of:offset:zone:rules:)``).
    let zone: TimeZone
    /// The same from the zone database, which decides when given.
    var rules: ZoneRules? = nil
    /// The period of aggregated points.
    let level: HAEPeriod
    /// The offsets the payload's dates are written with.
    var offsets: Set<Int> = []
    /// The payload's dates that start a day, sorted (``periodEnd(_:start:offset:)``).
    var dayStarts: [Date] = []
    /// The creation date of every sample.
    let created: Date
    /// Recorded on every sample as ``receivedThroughKey`` when not nil.
    let receivedThrough: String?
    /// Types and units looked up once per payload, not once per point.
    let lookups = Lookups()
    /// The new samples' uuids.
    let uuids = RandomUUIDSource()

    /// The catalogue's types and parsed units, by the text looked up.
    final class Lookups {
        var types: [String: SampleType?] = [:]
        var units: [String: HealthUnit?] = [:]
        /// The last of each looked up: a metric's points ask for the same one after another.
        var lastType: (identifier: String, type: SampleType?)?
        var lastUnit: (text: String, unit: HealthUnit?)?
        /// `HAE|<sync name>|` of the last metric name asked for.
        var lastPrefix: (name: String, prefix: String)?
        /// The last sync identifier prefix, source name and program that ``TextRules`` found fine.
        var finePrefix: String?
        var fineSource: String?
        var fineReceivedThrough: String?
        /// Per period: the marks every sample of it carries (the sync identifier still empty), copied for each sample.
        var periodMarks: [(period: HAEPeriod, metadata: [String: MetadataValue])] = []
        /// Where ``syncHash(_:_:_:_:)`` spells an identifier.
        private let identifier = ByteBuffer(capacity: 256)

        /// ``HAEImportRun/syncHash(_:)`` of the identifier `prefix`, `stamp`, the period's suffix and the part spell
        /// (``HAEDirectPoints``), from its bytes.
        func syncHash(_ prefix: [UInt8], _ stamp: HAEDirectPoints.Stamp, _ period: HAEPeriod, _ part: HAEDirectPoints.Part) -> Int {
            identifier.removeAll()
            identifier.append(prefix)
            var bytes = stamp.bytes
            withUnsafeBytes(of: &bytes) { identifier.append(UnsafeBufferPointer(rebasing: $0.bindMemory(to: UInt8.self)[..<stamp.count])) }
            identifier.append(HAEDirectPoints.suffix(period))
            identifier.append(part.suffix)
            return HAEImportRun.syncHash(bytes: UnsafeRawBufferPointer(identifier.bytes))
        }
    }

    /// The metadata of a sample of `period` without `extra` or other fields, its sync identifier empty: a copy of it
    /// takes one key's hash to set the identifier, where building it takes three and a new table.
    private func periodMarks(_ period: HAEPeriod) -> [String: MetadataValue] {
        if let known = lookups.periodMarks.first(where: { $0.period == period }) { return known.metadata }
        var metadata: [String: MetadataValue] = [:]
        // Room for the marks and the sync version the store adds, as the metadata of a sample is built.
        metadata.reserveCapacity(4)
        metadata[MetadataKeySyncIdentifier] = .string("")
        metadata[HAESampleBuilder.aggregationKey] = .string(period.name)
        if let receivedThrough { metadata[HAESampleBuilder.receivedThroughKey] = .string(receivedThrough) }
        lookups.periodMarks.append((period, metadata))
        return metadata
    }

    /// The catalogued type of `identifier`, if any (cached).
    func catalogued(_ identifier: String) -> SampleType? {
        if let last = lookups.lastType, last.identifier == identifier { return last.type }
        let found: SampleType?
        if let known = lookups.types[identifier] {
            found = known
        } else {
            found = catalogue.type(identifier: identifier)
            lookups.types[identifier] = .some(found)
        }
        lookups.lastType = (identifier, found)
        return found
    }

    /// The unit `text` reads as, if it does (cached).
    func unit(_ text: String) -> HealthUnit? {
        if let last = lookups.lastUnit, last.text == text { return last.unit }
        let found: HealthUnit?
        if let known = lookups.units[text] {
            found = known
        } else {
            found = try? HealthUnit(parsing: text)
            lookups.units[text] = .some(found)
        }
        lookups.lastUnit = (text, found)
        return found
    }

    /// `HAE|<sync name of metric>|`, the start of its points' sync identifiers (kept for the last metric asked for).
    func syncPrefix(of metric: String) -> String {
        if let last = lookups.lastPrefix, last.name == metric { return last.prefix }
        let prefix = HAESampleBuilder.syncPrefix + HAEMetricKind.syncName(of: metric) + "|"
        lookups.lastPrefix = (metric, prefix)
        return prefix
    }

    /// The metadata key that marks a sample as read from Health Auto Export, with the period it covers.
    static let aggregationKey = "HAEAggregation"
    /// The metadata key naming the program that pushed the payload (nil for files).
    static let receivedThroughKey = "HAEReceivedThrough"
    /// The prefix of the type identifier of what HAE writes that has no HealthKit type yet.
    static let untypedPrefix = "HealthAutoExport_"
    /// Marks sync identifiers of HAE points.
    static let syncPrefix = "HAE|"

    /// The samples of `metric`, in point order, and refusals.
    func build(_ metric: HAEMetric) -> [HAEBuilt] {
        var results: [HAEBuilt] = []
        results.reserveCapacity(metric.points.count)
        build(metric) { results.append($0) }
        return results
    }

    /// Calls `body` with the samples of `metric` and its refusals, point by point (nothing held for the whole metric).
    func build(_ metric: HAEMetric, into body: (HAEBuilt) throws -> Void) rethrows {
        try build(metric, into: body, afterPoint: {})
    }

    /// Calls `body` with the samples of `metric` and its refusals, point by point, and `afterPoint` once all of a
    /// point's are given (a point can give several samples: a batch must not end between them).
    func build(_ metric: HAEMetric, into body: (HAEBuilt) throws -> Void, afterPoint: () throws -> Void) rethrows {
        guard let kind = HAEMetricKind.kind(of: metric.name) else {
            for point in metric.points {
                try body(untyped(point, metric: metric, identifier: HAESampleBuilder.untypedPrefix + metric.name))
                try afterPoint()
            }
            return
        }
        for point in metric.points {
            try build(point, metric: metric, kind: kind, into: body)
            try afterPoint()
        }
    }

    /// Calls `body` with the samples of point `position` of `metric`, or its refusal.
    func build(_ metric: HAEMetric, at position: Int, into body: (HAEBuilt) throws -> Void) rethrows {
        let point = metric.points[position]
        guard let kind = HAEMetricKind.kind(of: metric.name) else {
            try body(untyped(point, metric: metric, identifier: HAESampleBuilder.untypedPrefix + metric.name))
            return
        }
        try build(point, metric: metric, kind: kind, into: body)
    }

    /// Calls `body` with the samples of one point of a typed metric of `kind`, or its refusal.
    func build(_ point: HAEPoint, metric: HAEMetric, kind: HAEMetricKind, into body: (HAEBuilt) throws -> Void) rethrows {
        if let refused = misfit(point, kind: kind) {
            try body(refused)
            return
        }
        switch kind.shape {
        case .quantity, .bloodGlucose, .insulinDelivery: try body(quantity(point, metric: metric, kind: kind))
        case .heartRate: for built in heartRate(point, metric: metric, kind: kind) { try body(built) }
        case .bloodPressure: try body(bloodPressure(point, metric: metric, kind: kind))
        case .sleep: for built in HAESleep(builder: self).build(point, metric: metric, kind: kind) { try body(built) }
        case .mindful, .standHour, .event: try body(categoryEvent(point, metric: metric, kind: kind))
        case .sexualActivity: for built in sexualActivity(point, metric: metric, kind: kind) { try body(built) }
        }
    }

    /// The texts HAE writes as strings: another JSON type there is a broken payload, not a name to guess.
    static let textKeys = ["source", "sleepSource", "inBedSource", "mealTime", "reason", "value", "units"]
    /// The figures that have a fallback when absent (a heart-rate `Min` is `Avg` then): written as anything but a
    /// number, the figure as written would be lost.
    static let figureKeys = ["Min", "Max", "Avg", "qty"]
    /// How far after the import's clock a point may start (phones and computers disagree by seconds, not hours).
    static let clockTolerance: TimeInterval = 3600

    /// Why a point of a typed metric is refused whatever its shape: a field of the wrong JSON type, or a start after
    /// now (a measurement has happened: a date in 2099 is a broken clock or payload, and `doctor` would call it
    /// implausible); nil when it is not.
    func misfit(_ point: HAEPoint, kind: HAEMetricKind) -> HAEBuilt? {
        // Usually every field fits: one look at each says so. Otherwise the checks below, in their order, say which
        // field is refused first.
        if point.fields.allSatisfy(fits) { return nil }
        for key in HAESampleBuilder.textKeys {
            guard let value = point[key] else { continue }
            switch value {
            case .string, .null: continue
            default:
                return .refused(type: kind.identifier, line: point.line, reason: "'\(key)' is \(value.described), not a text")
            }
        }
        for key in HAESampleBuilder.figureKeys {
            guard let value = point[key] else { continue }
            switch value {
            case .number, .null: continue
            default: return refusedForNumber(point, key: key, kind: kind)
            }
        }
        for key in ["date", "startDate", "sleepStart", "inBedStart"] {
            guard let (start, _) = dateField(point, key), start.timeIntervalSince(created) > HAESampleBuilder.clockTolerance else { continue }
            return .refused(type: kind.identifier, line: point.line,
                            reason: "'\(key)' is \(point[key]!.described), after now: a measurement has already happened; check the phone's date and time")
        }
        return nil
    }

    /// Whether a field passes ``misfit(_:kind:)``'s checks whatever else the point holds (false is not a refusal: the
    /// full checks then decide).
    private func fits(_ field: (key: String, value: HAEValue)) -> Bool {
        switch field.value {
        case .string, .null: return !HAESampleBuilder.figureKeys.contains(field.key)
        case .number: return !HAESampleBuilder.textKeys.contains(field.key)
        case let .date(date, _):
            return date.timeIntervalSince(created) <= HAESampleBuilder.clockTolerance
                && !HAESampleBuilder.textKeys.contains(field.key) && !HAESampleBuilder.figureKeys.contains(field.key)
        case .bool, .json: return !HAESampleBuilder.textKeys.contains(field.key) && !HAESampleBuilder.figureKeys.contains(field.key)
        }
    }

    // MARK: - Shapes

    private func quantity(_ point: HAEPoint, metric: HAEMetric, kind: HAEMetricKind) -> HAEBuilt {
        guard let (start, offset) = date(point) else { return refusedForDate(point, kind: kind) }
        guard let qty = number(point, "qty") else { return refusedForNumber(point, key: "qty", kind: kind) }
        var metadata: [String: MetadataValue] = [:]
        if kind.shape == .bloodGlucose, let meal = point["mealTime"]?.text {
            switch meal {
            case "Before Meal": metadata["HKMetadataKeyBloodGlucoseMealTime"] = .number(1)
            case "After Meal": metadata["HKMetadataKeyBloodGlucoseMealTime"] = .number(2)
            default: break
            }
        }
        if kind.shape == .insulinDelivery, let reason = point["reason"]?.text {
            switch reason {
            case "Basal": metadata["HKMetadataKeyInsulinDeliveryReason"] = .number(1)
            case "Bolus": metadata["HKMetadataKeyInsulinDeliveryReason"] = .number(2)
            default: break
            }
        }
        let period = periodOfPoint(start, offset: offset)
        return quantitySample(kind.identifier, value: qty, units: metric.units, start: start,
                              end: periodEnd(period, start: start, offset: offset), period: period, point: point,
                              metric: metric, part: nil, extra: metadata, understood: ["date", "qty", "source", "mealTime", "reason"])
    }

    /// Heart rate with `Min`/`Avg`/`Max`. A point whose three are equal is one reading. Otherwise it is three
    /// samples over its period so that `stats heart-rate` gives the payload's figures: the minimum over
    /// `[start, start+1 ms)`, the maximum over `[start+1 ms, start+2 ms)`, and the rest of the period with the value
    /// that makes the time-weighted average of the three exactly `Avg`. The main sample keeps `Min`, `Avg`, `Max`
    /// as written in metadata (`HAEMin`, `HAEAvg`, `HAEMax`). An unaggregated point (an instant) whose three differ
    /// is three readings at its time: `Min`, `Max` and `Avg`. The sync identifiers are the point's (`|min`, `|max`
    /// for the two extra samples), whatever the shape, so a re-send in the other shape replaces the point.
    private func heartRate(_ point: HAEPoint, metric: HAEMetric, kind: HAEMetricKind) -> [HAEBuilt] {
        guard let (start, offset) = date(point) else { return [refusedForDate(point, kind: kind)] }
        let avg = number(point, "Avg") ?? number(point, "qty")
        guard let avg else { return [refusedForNumber(point, key: "Avg", kind: kind)] }
        let low = number(point, "Min") ?? avg, high = number(point, "Max") ?? avg
        guard low <= avg, avg <= high else {
            return [.refused(type: kind.identifier, line: point.line,
                             reason: "Min \(NumberFormatting.json(low)), Avg \(NumberFormatting.json(avg)) and Max \(NumberFormatting.json(high)) are not in that order")]
        }
        let understood: [String] = ["date", "Min", "Avg", "Max", "qty", "source", "units"]
        var period = periodOfPoint(start, offset: offset)
        let end = periodEnd(period, start: start, offset: offset)
        if low == high {
            return [quantitySample(kind.identifier, value: avg, units: metric.units, start: start, end: end, period: period,
                                   point: point, metric: metric, part: nil, extra: [:], understood: understood)]
        }
        if end.timeIntervalSince(start) < 0.01 {
            period = .instant
            let figures: [String: MetadataValue] = ["HAEMin": .number(low), "HAEAvg": .number(avg), "HAEMax": .number(high)]
            return [
                quantitySample(kind.identifier, value: low, units: metric.units, start: start, end: start, period: period,
                               point: point, metric: metric, part: "min", extra: [:], understood: understood),
                quantitySample(kind.identifier, value: high, units: metric.units, start: start, end: start, period: period,
                               point: point, metric: metric, part: "max", extra: [:], understood: understood),
                quantitySample(kind.identifier, value: avg, units: metric.units, start: start, end: start, period: period,
                               point: point, metric: metric, part: nil, extra: figures, understood: understood),
            ]
        }
        let millisecond = 0.001
        let length = end.timeIntervalSince(start)
        let rest = (avg * length - (low + high) * millisecond) / (length - 2 * millisecond)
        let figures: [String: MetadataValue] = ["HAEMin": .number(low), "HAEAvg": .number(avg), "HAEMax": .number(high)]
        return [
            quantitySample(kind.identifier, value: low, units: metric.units, start: start, end: start.addingTimeInterval(millisecond),
                           period: period, point: point, metric: metric, part: "min", extra: [:], understood: understood),
            quantitySample(kind.identifier, value: high, units: metric.units, start: start.addingTimeInterval(millisecond),
                           end: start.addingTimeInterval(2 * millisecond), period: period, point: point, metric: metric,
                           part: "max", extra: [:], understood: understood, pointStart: start),
            quantitySample(kind.identifier, value: rest, units: metric.units, start: start.addingTimeInterval(2 * millisecond),
                           end: end, period: period, point: point, metric: metric, part: nil, extra: figures, understood: understood,
                           pointStart: start),
        ]
    }

    /// `{"date", "systolic", "diastolic"}`: a blood-pressure correlation with its two readings.
    private func bloodPressure(_ point: HAEPoint, metric: HAEMetric, kind: HAEMetricKind) -> HAEBuilt {
        guard let (start, offset) = date(point) else { return refusedForDate(point, kind: kind) }
        guard let systolic = number(point, "systolic") else { return refusedForNumber(point, key: "systolic", kind: kind) }
        guard let diastolic = number(point, "diastolic") else { return refusedForNumber(point, key: "diastolic", kind: kind) }
        let period = periodOfPoint(start, offset: offset)
        let end = periodEnd(period, start: start, offset: offset)
        let understood: [String] = ["date", "systolic", "diastolic", "source"]
        var members: [Sample] = []
        for (part, identifier, value) in [("systolic", CorrelationType.systolic, systolic), ("diastolic", CorrelationType.diastolic, diastolic)] {
            switch quantitySample(identifier, value: value, units: metric.units.isEmpty ? "mmHg" : metric.units, start: start, end: end,
                                  period: period, point: point, metric: metric, part: part, extra: [:], understood: understood) {
            case let .candidate(candidate) where !candidate.generic: members.append(candidate.sample)
            case let .refused(_, line, reason): return .refused(type: kind.identifier, line: line, reason: reason)
            default:
                return untyped(point, metric: metric, identifier: kind.identifier)
            }
        }
        let (identifier, metadata) = marks(start: start, period: period, point: point, metric: metric, part: nil, understood: understood)
        let correlation = Correlation.sample(of: .bloodPressure, members: members, start: start, end: end, source: source(point),
                                             created: created, metadata: metadata, uuid: uuids.next())
        return .candidate(HAECandidate(sample: correlation, members: members, generic: false, syncIdentifier: identifier,
                                       line: point.line, metric: metric.name))
    }

    /// Mindful minutes (`qty` minutes from `date`), stand hours (`qty` 1 for the hour from `date`; an aggregate of
    /// several hours is kept untyped: which hours is not written), handwashing and toothbrushing (`qty` seconds,
    /// `value` Complete or Incomplete kept in metadata as `HAEValue`).
    private func categoryEvent(_ point: HAEPoint, metric: HAEMetric, kind: HAEMetricKind) -> HAEBuilt {
        guard let (start, offset) = date(point) else { return refusedForDate(point, kind: kind) }
        guard let qty = number(point, "qty") else { return refusedForNumber(point, key: "qty", kind: kind) }
        guard qty.isFinite, qty >= 0 else { return refusedForNumber(point, key: "qty", kind: kind) }
        let period = periodOfPoint(start, offset: offset)
        var end: Date, raw: Int?
        var extra: [String: MetadataValue] = [:]
        switch kind.shape {
        case .mindful:
            end = start.addingTimeInterval(qty * (metric.units == "hr" ? 3600 : metric.units == "s" ? 1 : 60))
            raw = 0
        case .standHour:
            end = start.addingTimeInterval(3600)
            raw = period <= .hour ? (qty >= 1 ? 0 : 1) : nil
        default:
            end = start.addingTimeInterval(qty * (metric.units == "min" ? 60 : 1))
            raw = 0
            if let value = point["value"]?.text { extra["HAEValue"] = .string(value) }
        }
        let understood: [String] = ["date", "qty", "source", "value"]
        guard let raw, let type = catalogued(kind.identifier), type.categoryValue(raw: raw) != nil else {
            return untyped(point, metric: metric, identifier: kind.identifier)
        }
        let (identifier, metadata, fine) = checkedMarks(start: start, period: period, point: point, metric: metric, part: nil,
                                                        understood: understood, extra: extra)
        let sample = Sample(uuid: uuids.next(), typeIdentifier: kind.identifier, start: start, end: end, value: .category(raw), source: source(point),
                            created: created, metadata: metadata)
        return check(sample, type: type, identifier: identifier, point: point, metric: metric, metadataFine: fine)
    }

    /// `{"date", "Unspecified", "Protection Used", "Protection Not Used"}`: that many events at `date`, with
    /// `HKMetadataKeySexualActivityProtectionUsed` 1 or 0 for the last two.
    private func sexualActivity(_ point: HAEPoint, metric: HAEMetric, kind: HAEMetricKind) -> [HAEBuilt] {
        guard let (start, offset) = date(point) else { return [refusedForDate(point, kind: kind)] }
        let period = periodOfPoint(start, offset: offset)
        let understood: [String] = ["date", "source", "Unspecified", "Protection Used", "Protection Not Used", "qty"]
        var results: [HAEBuilt] = []
        for (key, protection) in [("Unspecified", nil), ("Protection Used", 1.0), ("Protection Not Used", 0.0)] as [(String, Double?)] {
            guard let value = point[key] else { continue }
            guard let count = value.number, count >= 0, count == count.rounded(), count < 1000 else {
                return [.refused(type: kind.identifier, line: point.line, reason: "'\(key)' is \(value.described), not a count of events")]
            }
            for index in 0..<Int(count) {
                var extra: [String: MetadataValue] = [:]
                if let protection { extra["HKMetadataKeySexualActivityProtectionUsed"] = .number(protection) }
                let part = "\(key)#\(index + 1)"
                let (identifier, metadata) = marks(start: start, period: period, point: point, metric: metric, part: part,
                                                   understood: understood, extra: extra)
                let sample = Sample(uuid: uuids.next(), typeIdentifier: kind.identifier, start: start, end: start, value: .category(0), source: source(point),
                                    created: created, metadata: metadata)
                if let type = catalogued(kind.identifier), type.categoryValue(raw: 0) != nil {
                    results.append(check(sample, type: type, identifier: identifier, point: point, metric: metric))
                } else {
                    var kept = sample
                    kept.value = .generic(value: key, unit: nil)
                    results.append(.candidate(HAECandidate(sample: kept, generic: true, syncIdentifier: identifier, line: point.line,
                                                           metric: metric.name)))
                }
            }
        }
        if results.isEmpty && point["date"] != nil && point.fields.allSatisfy({ understood.contains($0.key) }) { return [] }
        return results.isEmpty ? [untyped(point, metric: metric, identifier: kind.identifier)] : results
    }

    // MARK: - Building blocks

    /// A quantity sample of `identifier`, typed when the catalogue has the type and the unit reads, else kept untyped.
    func quantitySample(_ identifier: String, value: Double, units: String, start: Date, end: Date, period: HAEPeriod,
                        point: HAEPoint, metric: HAEMetric, part: String?, extra: [String: MetadataValue],
                        understood: [String], pointStart: Date? = nil) -> HAEBuilt {
        guard value.isFinite else { return refusedForNumber(point, key: "qty", kind: HAEMetricKind(identifier: identifier, shape: .quantity)) }
        let (syncIdentifier, metadata, fine) = checkedMarks(start: pointStart ?? start, period: period, point: point, metric: metric,
                                                            part: part, understood: understood, extra: extra)
        let unitText = HAEMetricKind.healthKitUnit(units, identifier: identifier)
        let source = source(point)
        if let type = catalogued(identifier), type.kind == .quantity, let unit = unit(unitText) {
            let amount = units == "%" ? value / 100 : value
            let sample = Sample(uuid: uuids.next(), typeIdentifier: type.identifier, start: start, end: end, value: .quantity(Quantity(amount, unit)),
                                source: source, created: created, metadata: metadata)
            return check(sample, type: type, identifier: syncIdentifier, point: point, metric: metric, metadataFine: fine)
        }
        guard value >= 0 || units.hasPrefix("deg") else {
            return .refused(type: identifier, line: point.line, reason: "the value \(NumberFormatting.json(value)) is negative")
        }
        let sample = Sample(uuid: uuids.next(), typeIdentifier: identifier, start: start, end: end, value: .generic(value: NumberFormatting.json(value), unit: units),
                            source: source, created: created, metadata: metadata)
        if let problem = textProblem(in: sample, metadataFine: fine) { return .refused(type: identifier, line: point.line, reason: problem) }
        return .candidate(HAECandidate(sample: sample, generic: true, syncIdentifier: syncIdentifier, line: point.line, metric: metric.name,
                                       checked: true))
    }

    /// A point kept untyped: its fields as written (the point's JSON without `date` and `source`) as the value.
    func untyped(_ point: HAEPoint, metric: HAEMetric, identifier: String) -> HAEBuilt {
        guard let (start, offset) = date(point) ?? dateField(point, "startDate") else {
            return refusedForDate(point, kind: HAEMetricKind(identifier: identifier, shape: .quantity))
        }
        let period = point["date"] == nil ? HAEPeriod.instant : periodOfPoint(start, offset: offset)
        var end = periodEnd(period, start: start, offset: offset)
        if let (stop, _) = dateField(point, "endDate"), stop >= start { end = stop }
        // In byte order of the keys, so a re-send with the keys in another order is the same point.
        let fields = point.fields.filter { $0.key != "date" && $0.key != "source" && $0.key != "startDate" && $0.key != "endDate" }
            .sorted { Array($0.key.utf8).lexicographicallyPrecedes(Array($1.key.utf8)) }
        let text = "{" + fields.map { JSONText.quoted($0.key) + ":" + HAESampleBuilder.json($0.value) }.joined(separator: ",") + "}"
        let (syncIdentifier, metadata) = marks(start: start, period: period, point: point, metric: metric, part: nil,
                                               understood: point.fields.map(\.key))
        let sample = Sample(uuid: uuids.next(), typeIdentifier: identifier, start: start, end: end, value: .generic(value: text, unit: metric.units.isEmpty ? nil : metric.units),
                            source: source(point), created: created, metadata: metadata)
        if let problem = TextRules.problem(in: sample) { return .refused(type: identifier, line: point.line, reason: problem) }
        return .candidate(HAECandidate(sample: sample, generic: true, syncIdentifier: syncIdentifier, line: point.line, metric: metric.name,
                                       checked: true))
    }

    /// The sample checked against its type (range, duration, value), as a candidate or a refusal. `metadataFine`: its
    /// metadata is as ``checkedMarks(start:period:point:metric:part:understood:extra:)`` found it fine.
    func check(_ sample: Sample, type: SampleType, identifier: String, point: HAEPoint, metric: HAEMetric,
               metadataFine: Bool = false) -> HAEBuilt {
        if let problem = textProblem(in: sample, metadataFine: metadataFine) {
            return .refused(type: type.identifier, line: point.line, reason: problem)
        }
        do {
            try sample.validated(as: type)
        } catch {
            return .refused(type: type.identifier, line: point.line, reason: "\(error)")
        }
        return .candidate(HAECandidate(sample: sample, generic: false, syncIdentifier: identifier, line: point.line, metric: metric.name,
                                       checked: true))
    }

    /// The sync identifier of a point's sample and its metadata: the sync identifier, the aggregation, the program
    /// it came through, `extra`, and every field of the point not in `understood` (as `HAE:<key>`), so nothing is lost.
    func marks(start: Date, period: HAEPeriod, point: HAEPoint, metric: HAEMetric, part: String?, understood: [String],
               extra: [String: MetadataValue] = [:]) -> (String, [String: MetadataValue]) {
        let (identifier, metadata, _) = checkedMarks(start: start, period: period, point: point, metric: metric, part: part,
                                                     understood: understood, extra: extra)
        return (identifier, metadata)
    }

    /// ``marks(start:period:point:metric:part:understood:extra:)``, and whether every key and value of the metadata
    /// passes ``TextRules/metadataProblem(key:value:)``, found with each text looked at once: the constant keys and
    /// aggregation names need no look, the sync identifier's prefix is looked at once per metric (its date and its
    /// part's constant names are printable ASCII, the part looked at anyway), the program once; `extra` and the
    /// point's other fields entry by entry. When true, ``TextRules/problem(in:)`` of a sample with this metadata is
    /// its source name's problem alone (``textProblem(in:metadataFine:)``).
    func checkedMarks(start: Date, period: HAEPeriod, point: HAEPoint, metric: HAEMetric, part: String?, understood: [String],
                      extra: [String: MetadataValue] = [:]) -> (String, [String: MetadataValue], fine: Bool) {
        // A day or week is named by its local date, not its UTC start: the same day re-sent after the phone changed
        // time zone (`2024-05-10 00:00:00 -0400` after `… +0200`) is the same point.
        // A minute, an hour and a week also name their length (ISO 8601's `start/duration`): a minute and the hour
        // it starts (or a week and its Monday) begin at the same time but are different points, and must not
        // replace each other as one (the hour's other 59 minutes would be lost).
        // Spelled into one string made large enough at once.
        let prefix = syncPrefix(of: metric.name)
        var fine = lookups.finePrefix == prefix
        if !fine, TextRules.firstRefused(in: prefix) == nil {
            lookups.finePrefix = prefix
            fine = true
        }
        if fine, let part, TextRules.firstRefused(in: part) != nil { fine = false }
        let identifier = HAESampleBuilder.syncIdentifier(prefix: prefix, start: start, period: period, date: date(point), part: part)
        var metadata: [String: MetadataValue]
        if extra.isEmpty {
            metadata = periodMarks(period)
            metadata[MetadataKeySyncIdentifier] = .string(identifier)
        } else {
            metadata = extra
            // Room for the marks (and the sync version the store adds) at once, rather than growing twice.
            metadata.reserveCapacity(extra.count + 4)
            metadata[MetadataKeySyncIdentifier] = .string(identifier)
            if extra[HAESampleBuilder.aggregationKey] == nil { metadata[HAESampleBuilder.aggregationKey] = .string(period.name) }
            if let receivedThrough { metadata[HAESampleBuilder.receivedThroughKey] = .string(receivedThrough) }
        }
        if let receivedThrough {
            if fine, lookups.fineReceivedThrough != receivedThrough {
                if TextRules.firstRefused(in: receivedThrough) == nil { lookups.fineReceivedThrough = receivedThrough } else { fine = false }
            }
        }
        if fine {
            for (key, value) in extra where TextRules.metadataProblem(key: key, value: value) != nil {
                fine = false
                break
            }
        }
        for field in point.fields where !understood.contains(field.key) {
            let key = "HAE:" + field.key, value: MetadataValue
            switch field.value {
            case .null: continue
            case let .number(number): value = .number(number)
            case let .string(text): value = .string(text)
            default: value = .string(HAESampleBuilder.json(field.value))
            }
            metadata[key] = value
            if fine, TextRules.metadataProblem(key: key, value: value) != nil { fine = false }
        }
        return (identifier, metadata, fine)
    }

    /// The sync identifier of a point's sample: `prefix` (``syncPrefix(of:)``), the point's time (its local date, from
    /// its `date`, for a day or a week; else `start` in UTC), the period's length, and `|part`.
    static func syncIdentifier(prefix: String, start: Date, period: HAEPeriod, date: (Date, Int)?, part: String?) -> String {
        var identifier = ""
        identifier.reserveCapacity(prefix.utf8.count + 32 + (part?.utf8.count ?? 0))
        identifier += prefix
        if period >= .day, let (date, offset) = date {
            identifier += HAESampleBuilder.localDate(date, offset: offset)
        } else {
            identifier += ISODate.format(start, in: .gmt)
        }
        switch period {
        case .minute: identifier += "/PT1M"
        case .hour: identifier += "/PT1H"
        case .week: identifier += "/P1W"
        case .instant, .day: break
        }
        if let part {
            identifier += "|"
            identifier += part
        }
        return identifier
    }

    /// ``TextRules/problem(in:)`` of `sample`; with `metadataFine` (its metadata as
    /// ``checkedMarks(start:period:point:metric:part:understood:extra:)`` found it fine) only its source name is looked
    /// at, and the last one found fine is not looked at again.
    func textProblem(in sample: Sample, metadataFine: Bool) -> String? {
        guard metadataFine else { return TextRules.problem(in: sample) }
        return sourceProblem(sample.source)
    }

    /// ``TextRules/sourceNameProblem(_:)`` of `source`; the last one found fine is not looked at again.
    ///
    /// The last one is matched by its bytes, not by `==`: canonically equal spellings (`é` as one scalar or as `e`
    /// and a combining accent) are equal Strings of different lengths, and the rule counts scalars.
    func sourceProblem(_ source: String) -> String? {
        if let known = lookups.fineSource, HAESampleBuilder.sameBytes(known, source) { return nil }
        if let problem = TextRules.sourceNameProblem(source) { return problem }
        lookups.fineSource = source
        return nil
    }

    /// Whether `a` and `b` are the same bytes: by `memcmp` over their UTF-8 where both are contiguous (native
    /// Strings), since the generic element-by-element comparison cost a tenth of an import's instructions.
    static func sameBytes(_ a: String, _ b: String) -> Bool {
        guard a.utf8.count == b.utf8.count else { return false }
        let compared = a.utf8.withContiguousStorageIfAvailable { x in
            b.utf8.withContiguousStorageIfAvailable { y in HAEPointList.same(x, y) }
        } ?? nil
        return compared ?? a.utf8.elementsEqual(b.utf8)
    }

    /// The end of the period `period` that starts at `start` (``HAEPeriod/end(of:offset:zone:rules:)``). A day ends
    /// where the payload's next day starts, when the payload has one 22 to 26 hours later (the day of a DST change is
    /// 23 or 25 hours: `2024-03-31 00:00:00 +0100` ends at `2024-04-01 00:00:00 +0200`): the phone's own days say how
    /// long they are, whatever the importer's zone (a phone in Johannesburg, +0200 all year, imported in Berlin, which
    /// is +0200 too on the day its summer time ends: that day is 24 hours, not Berlin's 25). Otherwise (the last day,
    /// or a gap) the importer's zone says, when it has the day's offset.
    func periodEnd(_ period: HAEPeriod, start: Date, offset: Int) -> Date {
        if period == .day {
            var low = 0, high = dayStarts.count
            while low < high {
                let middle = (low + high) / 2
                if dayStarts[middle] <= start { low = middle + 1 } else { high = middle }
            }
            if low < dayStarts.count {
                let length = dayStarts[low].timeIntervalSince(start)
                if length >= 22 * 3600, length <= 26 * 3600 { return dayStarts[low] }
            }
        }
        return period.end(of: start, offset: offset, zone: zone, rules: rules)
    }

    /// The local date (`yyyy-MM-dd`) of `date` written with `offset` seconds east of UTC.
    static func localDate(_ date: Date, offset: Int) -> String {
        let days = Int(((date.timeIntervalSince1970 + Double(offset)) / 86_400).rounded(.down))
        let (year, month, day) = HAESampleBuilder.civil(fromDays: days)
        func padded(_ value: Int, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return padded(year, 4) + "-" + padded(month, 2) + "-" + padded(day, 2)
    }

    /// The proleptic Gregorian date of `days` since 1970-01-01 (Howard Hinnant's algorithm).
    static func civil(fromDays days: Int) -> (Int, Int, Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// The period of a point dated `start`: the payload's level when the date starts such a period, else an instant.
    func periodOfPoint(_ start: Date, offset: Int) -> HAEPeriod {
        guard level > .instant else { return .instant }
        let alignment = HAEPeriod.alignment(of: start, offset: offset, offsets: offsets)
        return alignment >= min(level, .day) ? level : .instant
    }

    func source(_ point: HAEPoint) -> String {
        if let text = point["source"]?.text, !text.isEmpty {
            // At most as many scalars as UTF-8 bytes: a name that short needs no fitting.
            return text.utf8.count <= TextRules.sourceNameLimit ? text : HAESampleBuilder.fitted(text)
        }
        return defaultSource
    }

    /// A `|`-joined source (HAE writes every contributing source) longer than ``TextRules/sourceNameLimit``,
    /// shortened the same way every time (so a re-send is the same point): its first names while they fit, then
    /// `|+N more` for the N left out. A single name too long is left as written (and refused with the point).
    static func fitted(_ source: String) -> String {
        guard source.unicodeScalars.count > TextRules.sourceNameLimit, source.contains("|") else { return source }
        let names = source.split(separator: "|", omittingEmptySubsequences: false)
        var kept: [Substring] = []
        var length = 0
        for (index, name) in names.enumerated() {
            let suffix = "|+\(names.count - index - 1) more".unicodeScalars.count
            let added = (kept.isEmpty ? 0 : 1) + name.unicodeScalars.count
            let last = index == names.count - 1
            guard length + added + (last ? 0 : suffix) <= TextRules.sourceNameLimit else { break }
            kept.append(name)
            length += added
        }
        guard !kept.isEmpty else { return source }
        let left = names.count - kept.count
        return kept.joined(separator: "|") + (left > 0 ? "|+\(left) more" : "")
    }

    func date(_ point: HAEPoint) -> (Date, Int)? { dateField(point, "date") }

    func dateField(_ point: HAEPoint, _ key: String) -> (Date, Int)? {
        if case let .date(date, offset)? = point[key] { return (date, offset) }
        return nil
    }

    func number(_ point: HAEPoint, _ key: String) -> Double? { point[key]?.number }

    func refusedForDate(_ point: HAEPoint, kind: HAEMetricKind, key: String = "date") -> HAEBuilt {
        let reason: String
        if let value = point[key] {
            reason = "'\(key)' is \(value.described), not a date like 2023-01-20 00:18:00 +1100"
        } else if point["@value"] != nil {
            reason = "the point is not an object with 'date'"
        } else {
            reason = "the point has no '\(key)'"
        }
        return .refused(type: kind.identifier, line: point.line, reason: reason)
    }

    func refusedForNumber(_ point: HAEPoint, key: String, kind: HAEMetricKind) -> HAEBuilt {
        let reason = point[key].map { "'\(key)' is \($0.described), not a number" } ?? "the point has no '\(key)'"
        return .refused(type: kind.identifier, line: point.line, reason: reason)
    }

    /// A value as JSON text.
    static func json(_ value: HAEValue) -> String {
        switch value {
        case let .number(number): return NumberFormatting.json(number)
        case let .string(text): return JSONText.quoted(text)
        case let .date(date, offset): return JSONText.quoted(ExportDateParser.format(date, offsetSeconds: offset))
        case let .bool(flag): return flag ? "true" : "false"
        case .null: return "null"
        case let .json(text): return (try? HAEJSONTree.parse(text))?.json ?? text
        }
    }
}
