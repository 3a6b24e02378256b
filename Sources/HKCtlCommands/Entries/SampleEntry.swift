import HealthCore
import HKCtlSupport
import TextSupport

/// What a person typed to log one sample, before it becomes a ``Sample``.
///
/// The rules of `hkctl add` live here: an amount is read with ``QuantityInput`` (a bare number only for counts);
/// a sleep entry takes `23:10-07:05` or `from`/`to`, with the stage `asleep` unless another is named;
/// a sample without times is instantaneous at `at`, or at now.
struct SampleEntry: Sendable {
    /// The type to log.
    var type: SampleType
    /// The amount (`0.5L`), a category value (`deep`), or for sleep a clock range (`23:10-07:05`).
    var value: String?
    /// The instant of an instantaneous sample.
    var at: TimeExpression?
    /// Start of a sample with a duration.
    var from: TimeExpression?
    /// End of a sample with a duration.
    var to: TimeExpression?
    /// The category value, for category types (`--stage`).
    var categoryValue: String?
    /// For a clock range: the day it ends on (the morning), at midnight.
    var endDay: Date?
    /// Metadata to attach.
    var metadata: [String: MetadataValue]

    /// Creates an entry.
    init(type: SampleType, value: String? = nil, at: TimeExpression? = nil, from: TimeExpression? = nil,
                to: TimeExpression? = nil, categoryValue: String? = nil, endDay: Date? = nil,
                metadata: [String: MetadataValue] = [:]) {
        self.type = type
        self.value = value
        self.at = at
        self.from = from
        self.to = to
        self.categoryValue = categoryValue
        self.endDay = endDay
        self.metadata = metadata
    }

    /// Whether `text` reads as a length of time (`8h`, `7.5h`, `45min`, `7h30m`) rather than a value name.
    static func looksLikeDuration(_ text: String) -> Bool {
        let lowered = text.lowercased().trimmingSpaces()
        guard let first = lowered.first, first.isASCII, first.isNumber else { return false }
        return lowered.allSatisfy { $0.isASCII && ($0.isNumber || $0 == "." || $0 == " " || "hminsec".contains($0)) }
    }

    /// Things worth a word before the sample is saved, which do not make it wrong: a sleep range lying mostly in the
    /// day (`07:00-23:00`, typed the wrong way round) or longer than a night's sleep.
    ///
    /// - Parameter sample: The sample ``sample(source:context:uuid:)`` built from this entry.
    /// - Returns: One sentence per warning; empty when there is nothing to say.
    func warnings(for sample: Sample, context: TimeContext) -> [String] {
        SampleEntry.warnings(for: sample, of: type, context: context)
    }

    /// The warnings ``warnings(for:context:)`` gives for `sample` of `type`, however it was made (`add`, `edit`).
    static func warnings(for sample: Sample, of type: SampleType, context: TimeContext) -> [String] {
        guard type.isSleepAnalysis, sample.end > sample.start else { return [] }
        let hours = sample.end.timeIntervalSince(sample.start) / 3600
        let start = context.calendar.localTime(of: sample.start), end = context.calendar.localTime(of: sample.end)
        func clock(_ time: (hour: Int, minute: Int)) -> String {
            NumberFormatting.zeroPadded(time.hour, width: 2) + ":" + NumberFormatting.zeroPadded(time.minute, width: 2)
        }
        let span = clock((start.hour, start.minute)) + "–" + clock((end.hour, end.minute))
        let length = NumberFormatting.human(hours, fractionDigits: 1)
        // Daytime sleep: starting in the morning and lasting a day's length, the shape of a reversed night
        // (`07:00-23:00`, `11:00-00:30`). Not nearly a whole day (`07:15-07:05`, a mistyped start): turned round it
        // would be minutes, so it is only said to be longer than a night.
        if start.hour >= 5 && start.hour < 12 && hours >= 8 && hours <= 19 {
            return ["\(span) is \(length) hours of sleep during the day; if you meant the night, write it as "
                + "\(clock((end.hour, end.minute)))-\(clock((start.hour, start.minute))) (saved as given)"]
        }
        if hours > 14 {
            return ["\(span) is \(length) hours of sleep, longer than a night; check the times (saved as given)"]
        }
        return []
    }

    /// Builds and validates the sample.
    ///
    /// - Parameters:
    ///   - source: The source name to record.
    ///   - context: Now and the zone, for relative and clock times.
    ///   - uuid: The new sample's identity.
    /// - Throws: ``SampleError``, ``UnitError`` or ``TimeInputError`` naming what is wrong.
    func sample(source: String, context: TimeContext, uuid: UUID = UUID()) throws -> Sample {
        var interval: DateInterval?
        let sampleValue: SampleValue
        switch type.kind {
        case .characteristic:
            throw SampleError.characteristicHasNoSamples(type: type.name)
        case .workout, .correlation:
            throw SampleError.wrongKind(type: type.name, expected: "a quantity or category type")
        case .quantity:
            guard let value else { throw UnitError.missingUnit("", type: type.name, examples: type.examples) }
            let quantity = try QuantityInput.parse(value, for: type)
            // Logged by hand, a count is whole and a total is more than nothing (imports keep what devices wrote).
            let cumulative = type.aggregation?.isCumulative ?? false
            if cumulative, type.canonicalUnit?.unitString == "count", quantity.unit.unitString == "count",
               quantity.value.isFinite, quantity.value != quantity.value.rounded() {
                throw SampleError.notWhole(value, type: type.name)
            }
            if quantity.value == 0, cumulative {
                throw SampleError.zeroAmount(value, type: type.name)
            }
            sampleValue = .quantity(quantity)
        case .category:
            var named = categoryValue
            if let value {
                if ClockRange.looksLikeRange(value) {
                    interval = try ClockRange.parse(value, endDay: endDay, in: context)
                } else if type.isSleepAnalysis && SampleEntry.looksLikeDuration(value) {
                    // `add sleep 8h`: a length says nothing about when, and sleep is counted by the night.
                    throw SampleError.wrongKind(type: type.name, expected: "a time range, not a length such as '\(value)': "
                        + "write when you slept, like '23:10-07:05' or 'yesterday 22:30-06:45', or use --from and --to")
                } else if type.isSleepAnalysis && value.contains(":") {
                    // `23:10-`, `-07:05`, `23:10`: a time, not a stage name; say what the range lacks.
                    throw SampleError.wrongKind(type: type.name, expected: "a range of two times, not '\(value)': "
                        + "write when you slept, like '23:10-07:05' or 'yesterday 22:30-06:45', or use --from and --to")
                } else if named == nil {
                    named = value
                } else {
                    throw SampleError.unknownCategoryValue(value, type: type.name, choices: type.categoryValues.map(\.name))
                }
            }
            let defaultValue = type.isSleepAnalysis ? "asleepUnspecified"
                : type.categoryValues.count == 1 ? type.categoryValues[0].name : nil
            guard let name = named ?? defaultValue else {
                throw SampleError.wrongKind(type: type.name, expected: "one of the values \(type.categoryValues.map(\.name).joined(separator: ", "))")
            }
            sampleValue = .category(try type.categoryValue(named: name).rawValue)
        }
        if interval == nil, let from, let to {
            var end = to.date
            if to.isDateOnly { end = context.startOfNextDay(after: end) }
            guard end >= from.date else {
                throw SampleError.endBeforeStart(start: ISODate.format(from.date, in: context.timeZone),
                                                 end: ISODate.format(end, in: context.timeZone))
            }
            interval = DateInterval(start: from.date, end: end)
        }
        let start = interval?.start ?? at?.date ?? context.now
        let end = interval?.end ?? start
        let sample = Sample(uuid: uuid, typeIdentifier: type.identifier, start: start, end: end, value: sampleValue,
                            source: source, created: context.now, metadata: metadata)
        return try sample.validated(as: type, now: context.now, timeZone: context.timeZone)
    }
}
