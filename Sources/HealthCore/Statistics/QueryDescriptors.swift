/// A type and the conditions its samples must meet: HealthKit's `HKSamplePredicate<Sample>`, which the descriptors
/// take. `Kind` is what a query with it returns: ``QuantitySample`` for `.quantitySample(type:predicate:)`,
/// ``CategorySample`` for `.categorySample(type:predicate:)`, ``Workout`` for `.workout(_:)`, ``HealthSample`` for
/// `.sample(type:predicate:)` (each result of the class of its kind).
public struct SampleTypePredicate<Kind: HealthSample>: Sendable {
    /// The type.
    public let sampleType: SampleType
    /// The conditions, or nil for every sample of the type.
    public let predicate: SamplePredicate?

    /// The range the predicate's dates select (everything when it has none).
    var interval: DateInterval {
        predicate?.interval ?? DateInterval(start: DateRange.distantStart, end: DateRange.distantEnd)
    }

    /// Whether the predicate selects a stored record: of its type, meeting its conditions.
    func matches(_ sample: Sample) -> Bool {
        guard sample.typeIdentifier == sampleType.identifier else { return false }
        return predicate?.matches(sample, in: interval) ?? true
    }
}

extension SampleTypePredicate where Kind == QuantitySample {
    /// Quantity samples of `type`, as `HKSamplePredicate.quantitySample(type:predicate:)`.
    public static func quantitySample(type: QuantityType, predicate: SamplePredicate? = nil) -> Self {
        Self(sampleType: type, predicate: predicate)
    }
}

extension SampleTypePredicate where Kind == CategorySample {
    /// Category samples of `type`, as `HKSamplePredicate.categorySample(type:predicate:)`.
    public static func categorySample(type: CategoryType, predicate: SamplePredicate? = nil) -> Self {
        Self(sampleType: type, predicate: predicate)
    }
}

extension SampleTypePredicate where Kind == HealthSample {
    /// Samples of any kind of `type`, as `HKSamplePredicate.sample(type:predicate:)`.
    public static func sample(type: SampleType, predicate: SamplePredicate? = nil) -> Self {
        Self(sampleType: type, predicate: predicate)
    }
}

extension SampleTypePredicate where Kind == Workout {
    /// Workouts, as `HKSamplePredicate.workout(_:)`.
    public static func workout(_ predicate: SamplePredicate? = nil) -> Self {
        Self(sampleType: Workout.sampleType, predicate: predicate)
    }
}

extension SamplePredicate {
    /// ``SampleTypePredicate/quantitySample(type:predicate:)``, under HealthKit's spelling `HKSamplePredicate.quantitySample`.
    public static func quantitySample(type: QuantityType, predicate: SamplePredicate? = nil) -> SampleTypePredicate<QuantitySample> {
        .quantitySample(type: type, predicate: predicate)
    }

    /// ``SampleTypePredicate/categorySample(type:predicate:)``.
    public static func categorySample(type: CategoryType, predicate: SamplePredicate? = nil) -> SampleTypePredicate<CategorySample> {
        .categorySample(type: type, predicate: predicate)
    }

    /// ``SampleTypePredicate/sample(type:predicate:)``.
    public static func sample(type: SampleType, predicate: SamplePredicate? = nil) -> SampleTypePredicate<HealthSample> {
        .sample(type: type, predicate: predicate)
    }

    /// ``SampleTypePredicate/workout(_:)``.
    public static func workout(_ predicate: SamplePredicate? = nil) -> SampleTypePredicate<Workout> {
        .workout(predicate)
    }
}

/// One figure set over a type and range: HealthKit's `HKStatisticsQueryDescriptor`.
public struct StatisticsQueryDescriptor: Sendable {
    /// The type and the samples considered.
    public var predicate: SampleTypePredicate<QuantitySample>
    /// The figures to compute (HealthKit's names work: `.cumulativeSum`, `.discreteAverage`, ...).
    public var options: StatisticsOptions

    /// Creates a descriptor.
    public init(predicate: SampleTypePredicate<QuantitySample>, options: StatisticsOptions = []) {
        self.predicate = predicate
        self.options = options
    }

    /// The figures over the predicate's range, in the type's canonical unit, or nil when no sample matches (as in
    /// HealthKit). Sources of a cumulative type are merged by the store's priority list for the type (``JSONFileStore/sourcePriorities()``), else
    /// the default order, as everywhere in the library (docs/STATISTICS.md).
    ///
    /// - Throws: ``HealthError`` (``HealthError/Code/errorInvalidArgument`` wrapping a ``StatisticsError`` for an option
    ///   that does not apply to the type; ``HealthError/Code/errorDatabaseInaccessible`` for store errors).
    public func result(for store: HealthStore) async throws -> Statistics? {
        try await BlockingWork.run { try run(on: store) }
    }

    func run(on store: HealthStore) throws -> Statistics? {
        let type = predicate.sampleType
        let predicate = try self.predicate.resolvingWorkout(in: store)
        let query = StatisticsRequest(type: type, interval: predicate.interval, unit: type.canonicalUnit,
                                    options: options.isEmpty ? nil : options, predicate: predicate.predicate ?? SamplePredicate(),
                                    priority: try store.storage.sourcePriorities().priority(for: type.identifier))
        let result = try query.run(on: store, calendar: GregorianCalendar(timeZone: store.timeZone))
        guard result.total.sampleCount > 0 else { return nil }
        var total = result.total
        total.unit = result.unit
        return total
    }
}

/// Figures per calendar interval: HealthKit's `HKStatisticsCollectionQueryDescriptor`.
public struct StatisticsCollectionQueryDescriptor: Sendable {
    /// The type and the samples considered.
    public var predicate: SampleTypePredicate<QuantitySample>
    /// The figures to compute.
    public var options: StatisticsOptions
    /// A date on a bucket boundary (midnight for days, the first day for months).
    public var anchorDate: Date
    /// The bucket length: one of minute, hour, day, weekOfYear, month or year, with a count.
    public var intervalComponents: DateComponents

    /// Creates a descriptor.
    public init(predicate: SampleTypePredicate<QuantitySample>, options: StatisticsOptions = [], anchorDate: Date,
                intervalComponents: DateComponents) {
        self.predicate = predicate
        self.options = options
        self.anchorDate = anchorDate
        self.intervalComponents = intervalComponents
    }

    /// The buckets over the predicate's range (or the data's, when the predicate has no dates), in the store's
    /// zone and the type's canonical unit.
    ///
    /// - Throws: ``HealthError`` (``HealthError/Code/errorInvalidArgument`` wrapping
    ///   ``StatisticsError/badIntervalComponents(_:)`` for components that are not one calendar step or a
    ///   ``StatisticsError`` for options; ``HealthError/Code/errorDatabaseInaccessible`` for store errors).
    public func result(for store: HealthStore) async throws -> StatisticsCollection {
        try await BlockingWork.run { try run(on: store) }
    }

    func run(on store: HealthStore) throws -> StatisticsCollection {
        let type = predicate.sampleType
        let predicate = try self.predicate.resolvingWorkout(in: store)
        let query = StatisticsRequest(type: type, interval: predicate.interval, unit: type.canonicalUnit,
                                    options: options.isEmpty ? nil : options, predicate: predicate.predicate ?? SamplePredicate(),
                                    bucketInterval: try Self.bucket(intervalComponents), anchor: anchorDate,
                                    priority: try store.storage.sourcePriorities().priority(for: type.identifier))
        let calendar = GregorianCalendar(timeZone: store.timeZone)
        let result = try query.run(on: store, calendar: calendar)
        return StatisticsCollection(buckets: result.buckets.map { bucket in
            var bucket = bucket
            bucket.unit = result.unit
            return bucket
        }, grid: BucketGrid(interval: try Self.bucket(intervalComponents), anchor: anchorDate), calendar: calendar, unit: result.unit)
    }

    /// The bucket length `components` names.
    static func bucket(_ components: DateComponents) throws -> BucketInterval {
        let parts: [(Int?, BucketInterval.Unit)] = [
            (components.minute, .minute), (components.hour, .hour), (components.day, .day),
            (components.weekOfYear ?? components.weekOfMonth, .week), (components.month, .month), (components.year, .year),
        ]
        let given = parts.compactMap { count, unit in count.map { ($0, unit) } }.filter { $0.0 != 0 }
        guard given.count == 1, let (count, unit) = given.first, count > 0 else {
            throw StatisticsError.badIntervalComponents("\(components)")
        }
        return BucketInterval(count, unit)
    }
}
