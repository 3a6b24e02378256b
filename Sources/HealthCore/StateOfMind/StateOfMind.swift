import TextSupport

/// How a person feels, as HealthKit's `HKStateOfMind` (iOS 18): the ``kind`` (an emotion now, or the day's mood), a
/// ``valence`` from -1 (very unpleasant) to 1 (very pleasant), words for the feeling (``labels``) and the parts of
/// life it concerns (``associations``).
///
/// It is stored as a ``Sample`` of type ``typeIdentifier`` (`HKDataTypeStateOfMind`) whose value is the kind's raw
/// value (`.category(1)` for a momentary emotion) and whose ``SampleDetail/stateOfMind(_:)`` holds the rest;
/// ``sample`` and ``init(_:)`` convert. Invariants (checked by ``validated(now:timeZone:)`` and every save): a finite
/// valence in -1...1, `end >= start`.
public final class StateOfMind: HealthSample, @unchecked Sendable {
    /// The state of mind a stored record holds, or nil when the record is not one.
    public convenience init?(_ sample: Sample) {
        guard sample.typeIdentifier == StateOfMind.typeIdentifier, case .stateOfMind? = sample.detail,
              case let .category(raw) = sample.value, Kind(rawValue: raw) != nil else { return nil }
        self.init(record: sample)
    }

    /// A new state of mind at `date`, not saved yet, as `HKStateOfMind(date:kind:valence:labels:associations:metadata:)`.
    /// The store checks it when it is saved: a valence in -1...1.
    public convenience init(date: Date, kind: Kind, valence: Double, labels: [Label], associations: [Association],
                            metadata: [String: MetadataValue]? = [:]) {
        self.init(record: Sample(newOfType: StateOfMind.typeIdentifier, start: date, end: date, value: .category(kind.rawValue),
                                 metadata: metadata)
            .with(detail: .stateOfMind(StateOfMindDetail(valence: valence, labels: labels, associations: associations))))
    }

    private var detail: StateOfMindDetail {
        if case let .stateOfMind(detail)? = sample.detail { return detail }
        preconditionFailure("a StateOfMind always holds its detail")
    }

    /// An emotion felt at a moment, or the mood of a day, as `kind`.
    public var kind: Kind { sample.value.categoryRawValue.flatMap(Kind.init(rawValue:)) ?? .momentaryEmotion }
    /// How pleasant, from -1 to 1, as `valence`.
    public var valence: Double { detail.valence }
    /// The band the valence lies in, as `valenceClassification`.
    public var valenceClassification: ValenceClassification {
        ValenceClassification(valence: valence) ?? (valence < 0 ? .veryUnpleasant : .veryPleasant)
    }
    /// The words chosen for the feeling, in the order given, as `labels`.
    public var labels: [Label] { detail.labels }
    /// The parts of life it concerns, in the order given, as `associations`.
    public var associations: [Association] { detail.associations }

    /// Checks the state of mind's invariants.
    ///
    /// - Parameter now: If given, one dated after it is refused.
    /// - Returns: It, unchanged.
    /// - Throws: ``SampleError`` naming what is wrong.
    @discardableResult
    public func validated(now: Date? = nil, timeZone: ZoneRules = .gmt) throws -> StateOfMind {
        if sample.end < sample.start {
            throw SampleError.endBeforeStart(start: ISODate.format(sample.start, in: timeZone), end: ISODate.format(sample.end, in: timeZone))
        }
        if let now, sample.end > now {
            throw SampleError.inFuture(end: ISODate.format(sample.end, in: timeZone), now: ISODate.format(now, in: timeZone))
        }
        guard valence.isFinite else { throw SampleError.notFinite(type: "state of mind valence") }
        guard StateOfMind.valenceRange.contains(valence) else {
            throw SampleError.outOfRange(valence, unit: "", type: "state of mind valence", range: StateOfMind.valenceRange)
        }
        return self
    }

    /// The valences HealthKit accepts.
    public static let valenceRange: ClosedRange<Double> = -1...1
}

extension Sample {
    /// The sample with `detail`.
    func with(detail: SampleDetail) -> Sample {
        var copy = self
        copy.detail = detail
        return copy
    }
}
