/// Finds workouts, like an `HKSampleQuery` of the workout type with an activity predicate, and summarises them.
public struct WorkoutQuery: Sendable {
    /// Workouts overlapping this interval (HealthKit's default predicate).
    public var interval: DateInterval
    /// Only this activity, if given.
    public var activity: WorkoutActivityType?

    /// Creates a query.
    public init(interval: DateInterval, activity: WorkoutActivityType? = nil) {
        self.interval = interval
        self.activity = activity
    }

    /// The workouts, oldest first. Workouts imported before the library typed them (kept generically) are typed on the fly.
    ///
    /// - Throws: Store errors.
    public func workouts(in store: SampleStore) throws -> [Workout] {
        var result: [Workout] = []
        try store.forEachSample(ofType: Workout.typeIdentifier, overlapping: interval) { sample in
            guard let workout = Workout(sample: sample) ?? WorkoutExportForm.typed(sample).flatMap(Workout.init(sample:)) else { return }
            if activity.map({ $0.rawValue == workout.activity.rawValue }) ?? true { result.append(workout) }
        }
        return result.sorted { ($0.start, $0.end, $0.uuid.uuidString) < ($1.start, $1.end, $1.uuid.uuidString) }
    }

    /// The average heart rate (count/min) during each workout that has heart-rate samples inside it: the mean of the
    /// readings that start within the workout, weighted by their length when they have one.
    ///
    /// - Throws: Store errors.
    public static func averageHeartRates(for workouts: [Workout], in store: SampleStore) throws -> [UUID: Double] {
        guard let first = workouts.map(\.start).min(), let last = workouts.map(\.end).max() else { return [:] }
        let span = DateInterval(start: first, end: last.addingTimeInterval(1))
        var collected = HeartRateReadings()
        var read = false
        if let readable = StatisticsRequest.quantityReadingSource(store) {
            // The statistics' reader: no Sample is built for the readings (ten years of workouts read 911 k). It
            // refuses a damaged line in the months at the span's ends that the reading of every sample passes over
            // (its dates lie outside the span): there, that reading decides, as it did before, and so does its
            // error where the damage lies inside the span.
            do {
                let names = try readable.forEachQuantityReading(ofType: HeartRateReadings.type, overlapping: span,
                                                                into: &collected)
                collected.convert(with: names)
                read = true
            } catch StoreError.corrupt {
                collected = HeartRateReadings()
            }
        }
        if !read {
            try store.forEachSample(ofType: HeartRateReadings.type, overlapping: span) { collected.add($0) }
        }
        let readings = collected.readings
        // Readings by start (store order among equal starts), so each workout finds its own by binary search; each
        // workout's are then summed in store order, as a pass over every reading for every workout summed them.
        let byStart = readings.indices.sorted { (readings[$0].start, $0) < (readings[$1].start, $1) }
        var averages: [UUID: Double] = [:]
        var inside: [Int] = []
        for workout in workouts {
            var low = 0, high = byStart.count
            while low < high {
                let middle = (low + high) / 2
                if readings[byStart[middle]].start < workout.start { low = middle + 1 } else { high = middle }
            }
            inside.removeAll(keepingCapacity: true)
            while low < byStart.count && readings[byStart[low]].start <= workout.end {
                inside.append(byStart[low])
                low += 1
            }
            inside.sort()
            var weighted = 0.0, weights = 0.0
            for index in inside {
                let (length, value) = (readings[index].length, readings[index].value)
                let weight = length > 0 ? length : 1
                weighted += value * weight
                weights += weight
            }
            if weights > 0 { averages[workout.uuid] = weighted / weights }
        }
        return averages
    }

    /// Count, durations, energy, distance and pace over the interval, and per bucket when `bucket` is given.
    /// A workout counts in the bucket where it starts.
    ///
    /// - Throws: Store errors, ``StatisticsError/tooManyBuckets(_:limit:)``, ``OverflowError`` when a total
    ///   overflows (workouts with energy or distance outside the valid range; they are named).
    public func summary(in store: SampleStore, bucket: BucketInterval? = nil, calendar: GregorianCalendar) throws -> WorkoutSummary {
        let workouts = try self.workouts(in: store)
        var summary = WorkoutSummary(interval: interval, total: WorkoutSummary.Figures(workouts))
        if let bucket {
            let edges = try BucketGrid(interval: bucket).boundaries(covering: interval, calendar: calendar)
            for index in 0..<(edges.count - 1) {
                let period = DateInterval(start: edges[index], end: edges[index + 1])
                let inside = workouts.filter { $0.start >= period.start && $0.start < period.end
                    || (index == 0 && $0.start < period.start) }
                summary.buckets.append(WorkoutSummary.Bucket(interval: period, figures: WorkoutSummary.Figures(inside)))
            }
        }
        try OverflowCheck.check(summary, workouts: workouts)
        return summary
    }
}

/// Heart-rate readings in count/min, in store order, for ``WorkoutQuery/averageHeartRates(for:in:)``: from the
/// statistics' reader (each reading's unit converted once the read names it), or from samples read in full. A
/// reading whose unit is not a rate of counts is left out, as a sample's is.
private struct HeartRateReadings: QuantityReadingConsumer {
    static let type = "HKQuantityTypeIdentifierHeartRate"
    private static let perMinute = try! HealthUnit(parsing: "count/min")

    /// Start, length and value in count/min.
    private(set) var readings: [(start: Date, length: TimeInterval, value: Double)] = []
    /// The unit index of each reading from the reader, until ``convert(with:)`` (values still in their own unit).
    private var units: [Int] = []

    var needsUUIDs: Bool { false }

    /// Every reading one by one: stored readings can stand in for lines; none are kept for this read alone.
    var readPlan: ReadPlan { .takingStoredReadingsKeepingNone }

    mutating func add(_ sample: Sample) {
        if let quantity = sample.value.quantity, let value = try? quantity.value(in: Self.perMinute) {
            readings.append((sample.start, sample.duration, value))
        }
    }

    mutating func consume(_ reading: QuantityReading, names: ReadingNames) throws {
        readings.append((reading.start, reading.end.timeIntervalSince(reading.start), reading.value))
        units.append(reading.unit)
    }

    /// Converts the reader's values into count/min by the units `names` holds, leaving out those that cannot be.
    mutating func convert(with names: ReadingNames) {
        var converted: [(start: Date, length: TimeInterval, value: Double)] = []
        converted.reserveCapacity(readings.count)
        for (reading, unit) in zip(readings, units) {
            guard let unit = names.parsedUnits[unit],
                  let value = try? Quantity(reading.value, unit).value(in: Self.perMinute) else { continue }
            converted.append((reading.start, reading.length, value))
        }
        readings = converted
        units = []
    }
}
