/// Average, minimum and maximum of systolic and diastolic pressure over blood-pressure readings
/// in mmHg. A reading counts in the period where it starts.
public struct BloodPressureSummary: Sendable {
    /// Average, minimum and maximum of one value (nil without readings).
    public struct Figures: Equatable, Sendable {
        public var average: Double?
        public var minimum: Double?
        public var maximum: Double?

        init(_ values: [Double]) {
            average = values.isEmpty ? nil : values.reduce(0, +) / Double(values.count)
            minimum = values.min()
            maximum = values.max()
        }
    }

    /// The figures of a set of readings.
    public struct Readings: Equatable, Sendable {
        /// Readings with both values.
        public var count: Int
        public var systolic: Figures
        public var diastolic: Figures

        init(_ correlations: [Correlation]) {
            let mmHg = try! HealthUnit(parsing: "mmHg")
            func values(_ identifier: String) -> [Double] {
                correlations.compactMap { try? $0.member(ofType: identifier)?.value.quantity?.value(in: mmHg) }
            }
            count = correlations.filter {
                $0.member(ofType: CorrelationType.systolic) != nil && $0.member(ofType: CorrelationType.diastolic) != nil
            }.count
            systolic = Figures(values(CorrelationType.systolic))
            diastolic = Figures(values(CorrelationType.diastolic))
        }
    }

    /// One period.
    public struct Bucket: Sendable {
        public var interval: DateInterval
        public var readings: Readings
    }

    public var interval: DateInterval
    public var total: Readings
    /// One per period, empty ones included, when asked for.
    public var buckets: [Bucket] = []

    /// Summarises the blood-pressure readings overlapping `interval`.
    ///
    /// - Throws: Store errors, ``StatisticsError/tooManyBuckets(_:limit:)``.
    public init(store: SampleStore, interval: DateInterval, bucket: BucketInterval? = nil, calendar: GregorianCalendar) throws {
        let readings = try CorrelationQuery(type: .bloodPressure, interval: interval).run(on: store)
        self.interval = interval
        total = Readings(readings)
        if let bucket {
            let edges = try BucketGrid(interval: bucket).boundaries(covering: interval, calendar: calendar)
            for index in 0..<(edges.count - 1) {
                let period = DateInterval(start: edges[index], end: edges[index + 1])
                let inside = readings.filter { $0.sample.start >= period.start && $0.sample.start < period.end }
                buckets.append(Bucket(interval: period, readings: Readings(inside)))
            }
        }
    }
}
