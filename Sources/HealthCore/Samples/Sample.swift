import TextSupport

/// One measurement over a time interval, like HealthKit's `HKQuantitySample` or `HKCategorySample`.
///
/// Invariants (checked by ``validated(catalogue:now:)``): `end >= start`, a finite non-negative value in a
/// unit of the type's dimension, a category value the type knows, and no longer than the type allows.
/// Dates are kept to the millisecond.
public struct Sample: Hashable, Sendable {
    /// Unique identity, assigned when the sample is created.
    public var uuid: UUID
    /// The HealthKit type identifier (`HKQuantityTypeIdentifierStepCount`).
    public var typeIdentifier: String
    /// When the measurement started.
    public var start: Date
    /// When it ended; equal to ``start`` for an instantaneous reading such as a weight.
    public var end: Date
    /// The quantity or category value.
    public var value: SampleValue
    /// The name of the source that wrote it (``AuthorizationState/ownerSource``, `hkctl`, for the store's owner).
    public var source: String
    /// When the sample was saved.
    public var created: Date
    /// Free-form metadata, keys case-sensitive.
    public var metadata: [String: MetadataValue]
    /// The version of the source that wrote it (an app or OS version), if known.
    public var sourceVersion: String?
    /// The device that measured it, as `key:value` pairs (`name:Apple Watch, model:Watch, hardware:Watch6,2`).
    public var device: String?
    /// What a workout or a correlation holds beyond its dates and value (nil for quantity and category samples).
    public var detail: SampleDetail?

    /// Creates a sample; dates are rounded to the millisecond.
    public init(
        uuid: UUID = UUID(), typeIdentifier: String, start: Date, end: Date, value: SampleValue,
        source: String, created: Date, metadata: [String: MetadataValue] = [:], sourceVersion: String? = nil,
        device: String? = nil, detail: SampleDetail? = nil
    ) {
        self.uuid = uuid
        self.typeIdentifier = typeIdentifier
        self.start = Sample.millisecondPrecision(start)
        self.end = Sample.millisecondPrecision(end)
        self.value = value
        self.source = source
        self.created = Sample.millisecondPrecision(created)
        self.metadata = metadata
        self.sourceVersion = sourceVersion
        self.device = device
        self.detail = detail
    }

    /// The length of the sample in seconds.
    public var duration: TimeInterval { end.timeIntervalSince(start) }

    static func millisecondPrecision(_ date: Date) -> Date {
        Date(timeIntervalSince1970: (date.timeIntervalSince1970 * 1000).rounded() / 1000)
    }

    /// Checks the sample against its type's rules.
    ///
    /// - Parameters:
    ///   - type: The sample's type.
    ///   - now: If given, a sample ending after this instant is refused.
    ///   - timeZone: The zone in which error messages show times.
    /// - Returns: The sample unchanged.
    /// - Throws: ``SampleError`` or ``UnitError`` naming what is wrong.
    @discardableResult
    public func validated(as type: SampleType, now: Date? = nil, timeZone: ZoneRules = .gmt) throws -> Sample {
        if end < start {
            throw SampleError.endBeforeStart(start: ISODate.format(start, in: timeZone), end: ISODate.format(end, in: timeZone))
        }
        if let now, end > now {
            throw SampleError.inFuture(end: ISODate.format(end, in: timeZone), now: ISODate.format(now, in: timeZone))
        }
        if let maximum = type.maximumDuration, duration > maximum {
            throw SampleError.tooLong(type: type.name, hours: duration / 3600, maximumHours: maximum / 3600)
        }
        switch (type.kind, value) {
        case (.characteristic, _):
            throw SampleError.characteristicHasNoSamples(type: type.name)
        case (.workout, _), (.correlation, _):
            break  // a workout's value is its activity, a correlation's its members: checked by their own rules
        case let (.quantity, .quantity(quantity)):
            guard quantity.value.isFinite else { throw SampleError.notFinite(type: type.name) }
            guard quantity.value >= 0 || quantity.unit.offset != 0 else {
                throw SampleError.negative(quantity.value, type: type.name)
            }
            guard let canonical = type.canonicalUnit else { break }
            guard quantity.unit.isCompatible(with: canonical) else {
                throw UnitError.wrongUnitForType(unit: quantity.unit.unitString, type: type.name, expected: type.examples)
            }
            if let range = type.validRange {
                let inCanonical = try quantity.value(in: canonical)
                if !range.contains(inCanonical) {
                    // Said in the unit the amount was given in: '610 count/min', not '10.1666666667 count/s'.
                    let entered = quantity.unit
                    func shown(_ bound: Double) -> Double {
                        let value = (try? Quantity(bound, canonical).value(in: entered)) ?? bound
                        // Four significant digits: a bound a person reads (15 count/min, 1.102–1543 lb), without the
                        // conversion's last-bit error.
                        guard value != 0, value.isFinite else { return value }
                        var magnitude = abs(value), digits = 3
                        while magnitude >= 10 { magnitude /= 10; digits -= 1 }
                        while magnitude < 1 { magnitude *= 10; digits += 1 }
                        // Whole powers of ten (exact up to 10^22), dividing or multiplying by them as the sign says:
                        // 5e8 at four digits is 5e8, not 499999999.99999994 (a product with 1e-5).
                        guard abs(digits) <= 22 else { return value }
                        let power = (0..<abs(digits)).reduce(1.0) { product, _ in product * 10 }
                        return digits >= 0 ? (value * power).rounded() / power : (value / power).rounded() * power
                    }
                    throw SampleError.outOfRange(quantity.value, unit: entered.unitString, type: type.name,
                                                 range: shown(range.lowerBound)...shown(range.upperBound))
                }
            }
        case let (.category, .category(raw)):
            if type.categoryValue(raw: raw) == nil {
                throw SampleError.unknownCategoryValue(String(raw), type: type.name,
                                                       choices: type.categoryValues.map(\.name))
            }
        case (_, .generic):
            break  // kept as written by an import; never typed, never summed
        case (.quantity, .category):
            throw SampleError.wrongKind(type: type.name, expected: "an amount such as \(type.examples.first ?? "1")")
        case (.category, .quantity):
            throw SampleError.wrongKind(type: type.name, expected: "one of the values \(type.categoryValues.map(\.name).joined(separator: ", "))")
        }
        return self
    }
}
