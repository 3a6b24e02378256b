import TextSupport

/// The samples of Health Auto Export points kept as plain figures, with no ``Sample``, metadata dictionary or
/// ``HAECandidate``, so that a batch that can meet nothing stored (``HAEImportRun``) goes from a metric's columns
/// straight to store lines and the run's notes (``JSONFileStore/writeHealthAutoExportDirectly(_:hashes:direct:run:)``).
///
/// Only points whose samples are certain are kept so (``HAESampleBuilder/direct(_:points:at:after:metric:into:)``):
/// a quantity point (`date`, `qty`, `source`) or a heart-rate point (`date`, `Min`, `Avg`, `Max`, `source`) of a
/// typed metric, every field of the JSON type the builder wants, the values inside their type's rules, the texts
/// passing ``TextRules``. Each row is then exactly the sample ``HAESampleBuilder`` makes of the point, and
/// ``candidates(merging:builder:)`` gives those samples back (built again from the point) when the batch must be
/// planned against the store after all. Every other point is built as before.
struct HAEDirectPoints {
    /// One sample of a point.
    struct Row {
        var uuid: UUID
        var start: Date
        var end: Date
        /// The stored amount (a `%` already a fraction).
        var amount: Double
        /// The time in `HKMetadataKeySyncIdentifier` (``HAESampleBuilder/syncIdentifier(prefix:start:period:date:part:)``:
        /// the metric's prefix, this, the period's suffix, the part), and the identifier's ``HAEImportRun/syncHash(_:)``.
        var stamp: Stamp
        var part: Part
        var hash: Int
        /// For a heart-rate point's `|min` and `|max` samples, the hash of the point's own identifier (the run's
        /// notes keep both); nil otherwise.
        var pointHash: Int?
        var source: String
        /// A heart-rate point's figures (`HAEMin`, `HAEAvg`, `HAEMax`), on its main sample.
        var figures: (low: Double, avg: Double, high: Double)?
        var period: HAEPeriod
        /// The metric (into ``metrics``) and the point's index in its list.
        var metric: Int32
        var point: Int32
        /// How many candidates of the batch come before this sample.
        var after: Int
    }

    /// A sync identifier's time as ASCII bytes: a UTC date-time (`2024-05-10T06:00:00+00:00`, 25 bytes) or a local
    /// date (`2024-05-10`, 10 bytes).
    struct Stamp {
        var bytes: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
        var count = 0
    }

    /// The part a sample is of its point: `|min` and `|max` end their identifiers.
    enum Part: UInt8 {
        case whole, min, max

        var suffix: StaticString {
            switch self {
            case .whole: return ""
            case .min: return "|min"
            case .max: return "|max"
            }
        }
    }

    /// What a sync identifier's period adds after its time (``HAESampleBuilder/syncIdentifier(prefix:start:period:date:part:)``).
    static func suffix(_ period: HAEPeriod) -> StaticString {
        switch period {
        case .minute: return "/PT1M"
        case .hour: return "/PT1H"
        case .week: return "/P1W"
        case .instant, .day: return ""
        }
    }

    /// A metric whose points are written directly: what its points share, looked up once.
    struct Metric {
        var metric: HAEMetric
        var kind: HAEMetricKind
        var type: SampleType
        var unit: HealthUnit
        /// The unit as a line writes it (``HealthUnit/unitString``).
        var unitText: String
        /// Whether `%` values are stored as fractions.
        var percent: Bool
        /// `HAE|<sync name>|`, ASCII, as bytes and as a line writes it (its opening quote, escapes, no closing quote).
        var prefix: [UInt8]
        var quotedPrefix: [UInt8]
        /// The numbers of the key names the shape reads, in the metric's list.
        var date: UInt32?, qty: UInt32?, source: UInt32?, low: UInt32?, avg: UInt32?, high: UInt32?
        /// Which metric of the payloads this is (payload, metric), so a batch names it once.
        var serial: (Int, Int)
    }

    var rows: [Row] = []
    var metrics: [Metric] = []
    /// Every sample's creation date and the program the payload came through (``HAESampleBuilder``'s).
    let created: Date
    let receivedThrough: String?

    init(created: Date, receivedThrough: String?) {
        self.created = created
        self.receivedThrough = receivedThrough
    }

    var isEmpty: Bool { rows.isEmpty }
    var count: Int { rows.count }

    /// The number of `metric` in ``metrics``, added when it is not the last one.
    mutating func number(of metric: Metric) -> Int32 {
        if let last = metrics.last, last.serial == metric.serial { return Int32(metrics.count - 1) }
        metrics.append(metric)
        return Int32(metrics.count - 1)
    }

    /// Empties the batch (the metric being read stays, so its later rows can name it).
    mutating func removeAll() {
        rows.removeAll(keepingCapacity: true)
        if metrics.count > 1 { metrics.removeFirst(metrics.count - 1) }
    }

    /// `candidates` with the rows' samples, built again from their points by `builder`, each where it came: the
    /// batch as the builder alone would have given it (the samples' uuids aside). `refuse` hears of a point the
    /// builder refuses after all (none should be).
    func candidates(merging candidates: [HAECandidate], builder: HAESampleBuilder,
                    refuse: (String, Int, String) -> Void) -> [HAECandidate] {
        var merged: [HAECandidate] = []
        merged.reserveCapacity(candidates.count + rows.count)
        var next = 0
        var index = 0
        while index < rows.count {
            let row = rows[index]
            while next < row.after {
                merged.append(candidates[next])
                next += 1
            }
            let metric = metrics[Int(row.metric)]
            builder.build(metric.metric.points[Int(row.point)], metric: metric.metric, kind: metric.kind) { built in
                switch built {
                case let .candidate(candidate): merged.append(candidate)
                case let .refused(type, line, reason): refuse(type, line, reason)
                }
            }
            // The point's other samples.
            index += 1
            while index < rows.count, rows[index].point == row.point, rows[index].metric == row.metric { index += 1 }
        }
        merged += candidates[next...]
        return merged
    }
}

extension HAESampleBuilder {
    /// What `metric`'s points share when they can be written directly: a quantity or heart-rate metric whose type
    /// is catalogued as a quantity and whose unit reads and fits it, with texts that pass ``TextRules``. Nil
    /// otherwise (its points are built as samples). `refused`: the type's points are refused whatever they hold.
    func directMetric(_ metric: HAEMetric, serial: (Int, Int), refused: Set<String>) -> HAEDirectPoints.Metric? {
        guard let kind = HAEMetricKind.kind(of: metric.name), kind.shape == .quantity || kind.shape == .heartRate,
              !refused.contains(kind.identifier), let type = catalogued(kind.identifier), type.kind == .quantity,
              type.identifier == kind.identifier,
              let unit = unit(HAEMetricKind.healthKitUnit(metric.units, identifier: kind.identifier)) else { return nil }
        if let canonical = type.canonicalUnit, !unit.isCompatible(with: canonical) { return nil }
        let prefix = syncPrefix(of: metric.name)
        // What ``checkedMarks(start:period:point:metric:part:understood:extra:)`` looks at once.
        if lookups.finePrefix != prefix {
            guard TextRules.firstRefused(in: prefix) == nil else { return nil }
            lookups.finePrefix = prefix
        }
        if let receivedThrough, lookups.fineReceivedThrough != receivedThrough {
            guard TextRules.firstRefused(in: receivedThrough) == nil else { return nil }
            lookups.fineReceivedThrough = receivedThrough
        }
        // An ASCII prefix: its identifiers are their own NFC, hashed from their bytes (``HAEImportRun/syncHash(_:)``).
        let bytes = Array(prefix.utf8)
        guard bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
        let quoted = ByteBuffer(capacity: bytes.count + 16)
        JSONBytes.appendQuoted(prefix, to: quoted)
        let list = metric.points
        return HAEDirectPoints.Metric(metric: metric, kind: kind, type: type, unit: unit, unitText: unit.unitString,
                                      percent: metric.units == "%", prefix: bytes, quotedPrefix: Array(quoted.bytes.dropLast()),
                                      date: list.keyNumber("date"),
                                      qty: list.keyNumber("qty"), source: list.keyNumber("source"), low: list.keyNumber("Min"),
                                      avg: list.keyNumber("Avg"), high: list.keyNumber("Max"), serial: serial)
    }

    /// Appends to `rows` the samples of point `index` of `points` when they are certain (see ``HAEDirectPoints``),
    /// exactly as ``build(_:metric:kind:into:)`` makes them; false, with nothing appended, when the point must be
    /// built. `after`: the candidates of the batch so far; `metric`: the metric's number in the batch.
    func direct(_ shared: HAEDirectPoints.Metric, points: HAEPointList, at index: Int, after: Int, metric: Int32,
                into rows: inout [HAEDirectPoints.Row]) -> Bool {
        var date: (Date, Int)?, qty: Double?, low: Double?, avg: Double?, high: Double?
        var text: String?, sourceSeen = false
        let heart = shared.kind.shape == .heartRate
        for field in points.fields(of: index) {
            let key = points.key(ofField: field)
            if key == shared.date {
                guard date == nil, let value = points.date(ofField: field) else { return false }
                date = value
            } else if key == shared.source {
                guard !sourceSeen else { return false }
                sourceSeen = true
                if let value = points.text(ofField: field) { text = value } else if !points.isNull(field: field) { return false }
            } else if !heart, key == shared.qty {
                guard qty == nil, let value = points.number(ofField: field) else { return false }
                qty = value
            } else if heart, key == shared.avg {
                guard avg == nil, let value = points.number(ofField: field) else { return false }
                avg = value
            } else if heart, key == shared.low {
                guard low == nil, let value = points.number(ofField: field) else { return false }
                low = value
            } else if heart, key == shared.high {
                guard high == nil, let value = points.number(ofField: field) else { return false }
                high = value
            } else {
                return false
            }
        }
        guard let (start, offset) = date, start.timeIntervalSince(created) <= HAESampleBuilder.clockTolerance else { return false }
        // ``source(_:)``, for a name short enough to need no fitting.
        let source: String
        if let text, !text.isEmpty {
            guard text.utf8.count <= TextRules.sourceNameLimit else { return false }
            source = text
        } else {
            source = defaultSource
        }
        guard sourceProblem(source) == nil else { return false }
        let period = periodOfPoint(start, offset: offset)
        let end = periodEnd(period, start: start, offset: offset)
        guard let stamp = HAESampleBuilder.stamp(start, offset: offset, period: period) else { return false }
        func row(_ value: Double, _ from: Date, _ to: Date, _ part: HAEDirectPoints.Part, point: Int?,
                 _ figures: (low: Double, avg: Double, high: Double)? = nil) -> HAEDirectPoints.Row {
            HAEDirectPoints.Row(uuid: uuids.next(), start: from, end: to, amount: shared.percent ? value / 100 : value,
                                stamp: stamp, part: part, hash: lookups.syncHash(shared.prefix, stamp, period, part), pointHash: point,
                                source: source, figures: figures, period: period, metric: metric, point: Int32(index), after: after)
        }
        guard heart else {
            guard let qty, fits(qty, duration: end.timeIntervalSince(start), shared) else { return false }
            rows.append(row(qty, start, end, .whole, point: nil))
            return true
        }
        // ``heartRate(_:metric:kind:)``'s shapes, but an instant whose figures differ (three readings at one time).
        guard let avg else { return false }
        let lowest = low ?? avg, highest = high ?? avg
        guard lowest.isFinite, highest.isFinite, lowest <= avg, avg <= highest else { return false }
        let length = end.timeIntervalSince(start)
        if lowest == highest {
            guard fits(avg, duration: length, shared) else { return false }
            rows.append(row(avg, start, end, .whole, point: nil))
            return true
        }
        guard length >= 0.01 else { return false }
        let millisecond = 0.001
        let rest = (avg * length - (lowest + highest) * millisecond) / (length - 2 * millisecond)
        guard fits(lowest, duration: millisecond, shared), fits(highest, duration: millisecond, shared),
              fits(rest, duration: length - 2 * millisecond, shared) else { return false }
        let main = row(rest, start.addingTimeInterval(2 * millisecond), end, .whole, point: nil, (lowest, avg, highest))
        rows.append(row(lowest, start, start.addingTimeInterval(millisecond), .min, point: main.hash))
        rows.append(row(highest, start.addingTimeInterval(millisecond), start.addingTimeInterval(2 * millisecond), .max, point: main.hash))
        rows.append(main)
        return true
    }

    /// The time a point's sync identifier names (``syncIdentifier(prefix:start:period:date:part:)``), as bytes: its
    /// local date for a day or a week, else its start in UTC; nil when that is not the usual text (a year outside 0
    /// to 9999, fractions of a second), which the builder then writes.
    static func stamp(_ start: Date, offset: Int, period: HAEPeriod) -> HAEDirectPoints.Stamp? {
        var stamp = HAEDirectPoints.Stamp()
        let seconds = start.timeIntervalSince1970
        guard seconds == seconds.rounded(.down), abs(seconds) < 1e12 else { return nil }
        let local = Int(seconds) + (period >= .day ? offset : 0)
        let days = local >= 0 ? local / 86_400 : (local - 86_399) / 86_400
        let (year, month, day) = HAESampleBuilder.civil(fromDays: days)
        guard year >= 0, year <= 9999 else { return nil }
        withUnsafeMutableBytes(of: &stamp.bytes) { out in
            var count = 0
            func digits(_ value: Int, _ width: Int) {
                var divisor = 1
                for _ in 1..<width { divisor *= 10 }
                while divisor > 0 {
                    out[count] = UInt8(truncatingIfNeeded: 48 + value / divisor % 10)
                    count += 1
                    divisor /= 10
                }
            }
            func byte(_ value: UInt8) {
                out[count] = value
                count += 1
            }
            digits(year, 4); byte(0x2D); digits(month, 2); byte(0x2D); digits(day, 2)
            if period < .day {
                let time = local - days * 86_400
                byte(0x54); digits(time / 3600, 2); byte(0x3A); digits(time / 60 % 60, 2); byte(0x3A); digits(time % 60, 2)
                for text in "+00:00".utf8 { byte(text) }
            }
            stamp.count = count
        }
        return stamp
    }

    /// Whether a sample of `value` (as written: a `%` not yet a fraction) lasting `duration` passes
    /// ``Sample/validated(as:now:timeZone:)`` for the metric's type and unit, whose compatibility is known.
    private func fits(_ value: Double, duration: TimeInterval, _ shared: HAEDirectPoints.Metric) -> Bool {
        let amount = shared.percent ? value / 100 : value
        guard amount.isFinite, amount >= 0 else { return false }
        if let maximum = shared.type.maximumDuration, duration > maximum { return false }
        if let range = shared.type.validRange, let canonical = shared.type.canonicalUnit {
            guard let inCanonical = try? Quantity(amount, shared.unit).value(in: canonical), range.contains(inCanonical) else { return false }
        }
        return true
    }
}
