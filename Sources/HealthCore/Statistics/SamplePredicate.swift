/// Which samples a query considers, like the predicates HealthKit's queries take: a date rule, sources, metadata
/// and uuids. ``StatisticsRequest`` holds its own interval; the predicates ``Query`` builds for the descriptors
/// (``StatisticsQueryDescriptor``, ``SampleQueryDescriptor``) carry theirs in ``interval``.
public struct SamplePredicate: Hashable, Sendable {
    /// How a sample's dates must relate to the interval `[start, end)` (HealthKit's `HKQueryOptions`).
    public struct DateOptions: OptionSet, Hashable, Sendable {
        /// HealthKit's raw value.
        public let rawValue: Int
        /// Creates options from HealthKit's raw value.
        public init(rawValue: Int) { self.rawValue = rawValue }
        /// The sample must start in the interval: `start <= s < end` (`strictStartDate`).
        public static let strictStartDate = DateOptions(rawValue: 1)
        /// The sample must end in the interval: `start <= e < end` (`strictEndDate`).
        public static let strictEndDate = DateOptions(rawValue: 2)
    }

    /// The date rule; empty means HealthKit's default, any overlap (`e >= start && s < end`).
    public var dateOptions: DateOptions
    /// Only samples from these sources; nil means every source.
    public var sources: Set<String>?
    /// Every condition must hold.
    public var metadata: [MetadataCondition]
    /// The dates samples are matched against with ``dateOptions``, for the descriptors; nil means any time.
    public var interval: DateInterval?
    /// Only the samples with these uuids; nil means any.
    public var uuids: Set<UUID>?
    /// Only the samples associated with the workout with this uuid, and its route (HealthKit's
    /// `predicateForObjects(from: workout)`); nil means any. A query run on a store turns it into ``uuids``; a
    /// predicate still holding it matches nothing on its own.
    public internal(set) var workoutUUID: UUID?
    /// The workout's dates, so that finding it reads only the partitions of its time.
    var workoutInterval: DateInterval?
    /// Conditions on a state of mind (`Query.predicateForStatesOfMind(...)`); every one must hold.
    var stateOfMindConditions: [StateOfMindCondition] = []
    /// The dates of predicates ``and(_:)`` combined, each with its own options, when more than one had dates: every
    /// one must hold (``interval`` is then the narrowest of them, which a matching sample overlaps).
    var dateConditions: [DateCondition] = []

    /// Dates a sample must relate to as its options say (one predicate's, inside ``and(_:)``).
    struct DateCondition: Hashable, Sendable {
        var interval: DateInterval
        var options: DateOptions
    }

    /// Only workouts of these activity types' raw values (`Query.predicateForWorkouts(with:)`); nil means any sample.
    var workoutActivityRawValues: Set<Int>?

    /// Creates a predicate; the defaults accept every sample that overlaps the interval.
    public init(dateOptions: DateOptions = [], sources: Set<String>? = nil, metadata: [MetadataCondition] = []) {
        self.dateOptions = dateOptions
        self.sources = sources
        self.metadata = metadata
    }

    /// Whether `sample` matches the date rule for `interval`.
    ///
    /// An instantaneous sample overlaps when it lies in `[start, end)`, so a reading at `end` belongs to the next
    /// interval.
    public func matchesDates(_ sample: Sample, in interval: DateInterval) -> Bool {
        if !dateConditions.isEmpty {
            // The combined predicates' own dates decide; options given without dates still apply to `interval`.
            guard dateConditions.allSatisfy({ SamplePredicate.matches(sample, $0.interval, $0.options) }) else { return false }
            return dateOptions.isEmpty || SamplePredicate.matches(sample, interval, dateOptions)
        }
        return SamplePredicate.matches(sample, interval, dateOptions)
    }

    private static func matches(_ sample: Sample, _ interval: DateInterval, _ options: DateOptions) -> Bool {
        if options.isEmpty { return sample.overlaps(interval) }
        if options.contains(.strictStartDate), !(sample.start >= interval.start && sample.start < interval.end) {
            return false
        }
        if options.contains(.strictEndDate), !(sample.end >= interval.start && sample.end < interval.end) {
            return false
        }
        return true
    }

    /// Whether `sample` comes from an accepted source and has the metadata asked for (dates not checked).
    public func matchesSourceAndMetadata(_ sample: Sample) -> Bool {
        if let sources, !sources.contains(sample.source) { return false }
        if let uuids, !uuids.contains(sample.uuid) { return false }
        if workoutUUID != nil { return false }  // not resolved against a store
        if !stateOfMindConditions.allSatisfy({ $0.holds(for: sample) }) { return false }
        if let workoutActivityRawValues {
            guard sample.typeIdentifier == Workout.typeIdentifier, case let .category(raw) = sample.value,
                  workoutActivityRawValues.contains(raw) else { return false }
        }
        return metadata.allSatisfy { $0.matches(sample) }
    }

    /// Whether `sample` matches every part of the predicate for `interval`.
    public func matches(_ sample: Sample, in interval: DateInterval) -> Bool {
        matchesDates(sample, in: interval) && matchesSourceAndMetadata(sample)
    }
}

/// One metadata condition: a key that must be present, or a key with a value.
///
/// Values compare as numbers when both sides are numbers (`HKWasUserEntered=1` matches `1`, `1.0` and the number 1),
/// otherwise as exact strings. Keys are case-sensitive, as in HealthKit.
public struct MetadataCondition: Hashable, Sendable {
    /// The metadata key.
    public var key: String
    /// The value required, or nil when the key only has to be present.
    public var value: String?

    /// Creates a condition.
    public init(key: String, value: String? = nil) {
        self.key = key
        self.value = value
    }

    /// Parses `KEY=VALUE` or `KEY`.
    ///
    /// - Throws: ``StatisticsError/invalidMetadataFilter(_:)`` when the key is empty.
    public init(parsing text: String) throws {
        if let equals = text.firstIndex(of: "=") {
            key = String(text[..<equals])
            value = String(text[text.index(after: equals)...])
        } else {
            key = text
            value = nil
        }
        guard !key.isEmpty else { throw StatisticsError.invalidMetadataFilter(text) }
    }

    /// Whether the sample's metadata satisfies the condition.
    public func matches(_ sample: Sample) -> Bool {
        guard let stored = sample.metadata[key] else { return false }
        guard let value else { return true }
        switch stored {
        case let .number(number):
            return Double(value).map { $0 == number } ?? false
        case let .string(text):
            if text == value { return true }
            if let left = Double(text), let right = Double(value) { return left == right }
            return false
        }
    }
}
