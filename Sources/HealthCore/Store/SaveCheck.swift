import TextSupport

/// The rules every sample passes before ``JSONFileStore/save(_:)`` writes it, so that nothing a library client saves
/// can make a later read fail: a known type, a value of the right kind in a unit of the type's dimension, finite and
/// plausible, `end >= start`, a category value the type has, a workout's totals in range, and a correlation whose
/// members are of the right types and are saved with it (or already stored). A type the catalogue does not know is
/// accepted only with a ``SampleValue/generic(value:unit:)`` value, as imports keep such records.
///
/// A sample dated in the future is accepted, as HealthKit stores one (a planned meal, a scheduled dose): refusing it
/// is a rule of entries typed by people, which check it themselves with ``Sample/validated(as:now:timeZone:)``, as
/// are the other rules only a person typing needs (whole step counts, no zero intake), since devices and imports
/// write fractional counts.
struct SaveCheck {
    let catalogue: SampleTypeCatalogue
    let timeZone: ZoneRules
    /// No instant is "now" for a save: nothing is refused for ending later.
    private let now: Date? = nil

    /// Checks the samples of one save; `stored` answers whether a correlation member not in the batch exists.
    ///
    /// - Throws: ``SampleError``, ``UnitError``, ``WorkoutError``, ``TextError`` for the first sample that breaks a rule.
    func check(_ samples: [Sample], stored: (CorrelationDetail.Member, Sample) throws -> Bool) throws {
        var batch: [UUID: String] = [:]
        for sample in samples {
            guard batch.updateValue(sample.typeIdentifier, forKey: sample.uuid) == nil else {
                throw SampleError.duplicateUUID(sample.uuid.lowercasedText)
            }
        }
        for sample in samples {
            try TextRules.check(sample)
            try checkUnitsReadBack(sample)
            try check(sample)
            if let correlation = sample.detail?.correlation {
                try checkMembers(correlation, of: sample, batch: batch, stored: stored)
            }
        }
    }

    private func check(_ sample: Sample) throws {
        if sample.typeIdentifier == Workout.typeIdentifier {
            guard let workout = Workout(sample: sample) else {
                throw SampleError.wrongKind(type: "workout", expected: "an activity type and a workout detail")
            }
            try workout.validated(now: now, timeZone: timeZone)
            return
        }
        if sample.typeIdentifier == StateOfMind.typeIdentifier {
            guard let state = StateOfMind(sample) else {
                throw SampleError.wrongKind(type: "state of mind", expected: "a kind and a valence (a state of mind detail)")
            }
            try state.validated(now: now, timeZone: timeZone)
            return
        }
        switch sample.detail {
        case .stateOfMind?: throw SampleError.wrongKind(type: sample.typeIdentifier, expected: "no state of mind detail")
        case .route?: throw SampleError.wrongKind(type: sample.typeIdentifier, expected: "no route (a route is saved with its workout)")
        default: break
        }
        if let correlation = CorrelationType.identified(sample.typeIdentifier) {
            guard sample.detail?.correlation != nil else {
                throw SampleError.wrongKind(type: correlation.name, expected: "its members (a correlation detail)")
            }
            // Its value is its members; only its dates are its own.
            try Sample(uuid: sample.uuid, typeIdentifier: sample.typeIdentifier, start: sample.start, end: sample.end,
                       value: .generic(value: "", unit: nil), source: sample.source, created: sample.created)
                .validated(as: correlation.sampleType, now: now, timeZone: timeZone)
            return
        }
        guard let type = catalogue.type(identifier: sample.typeIdentifier) else {
            if let characteristic = SampleType.characteristicType(named: sample.typeIdentifier) {
                throw SampleError.characteristicHasNoSamples(type: characteristic.name)
            }
            // A type this build does not know is kept as written, as an import keeps it: never typed, never summed.
            guard case .generic = sample.value, sample.detail == nil, !sample.typeIdentifier.isEmpty else {
                throw SampleError.unknownTypeIdentifier(sample.typeIdentifier)
            }
            try sample.validated(as: .category(sample.typeIdentifier, name: sample.typeIdentifier, title: "", values: [],
                                               examples: []), now: now, timeZone: timeZone)
            return
        }
        guard sample.detail == nil else {
            throw SampleError.wrongKind(type: type.name, expected: "no workout or correlation detail")
        }
        try sample.validated(as: type, now: now, timeZone: timeZone)
    }

    /// A unit is stored as its ``HealthUnit/unitString`` and parsed again by every read: one that did not parse
    /// back as itself would make the reads of its month fail. Every unit the library makes does; this check keeps it so.
    private func checkUnitsReadBack(_ sample: Sample) throws {
        func check(_ unit: HealthUnit?) throws {
            guard let unit else { return }
            guard let back = HealthUnit.parse(unit.unitString), back == unit, back.dimension == unit.dimension else {
                throw UnitError.malformed(unit.unitString, reason: "it does not read back as the same unit")
            }
        }
        if case let .quantity(quantity) = sample.value { try check(quantity.unit) }
        if let workout = sample.detail?.workout {
            try check(workout.totalEnergyBurned?.unit)
            try check(workout.totalDistance?.unit)
        }
    }

    private func checkMembers(_ detail: CorrelationDetail, of sample: Sample, batch: [UUID: String],
                              stored: (CorrelationDetail.Member, Sample) throws -> Bool) throws {
        guard let type = CorrelationType.identified(sample.typeIdentifier) else {
            throw SampleError.wrongKind(type: sample.typeIdentifier, expected: "no correlation detail (it is not a correlation type)")
        }
        guard !detail.members.isEmpty else { throw SampleError.correlationMembers(type: type.name, problem: "it has no members") }
        for member in detail.members {
            guard type.allows(member: member.typeIdentifier) else {
                throw SampleError.correlationMembers(type: type.name, problem: "a \(member.typeIdentifier) sample cannot be a member")
            }
            if let saved = batch[member.uuid] {
                guard saved == member.typeIdentifier else {
                    throw SampleError.correlationMembers(
                        type: type.name, problem: "member \(member.uuid.lowercasedText) is a \(saved) sample, not \(member.typeIdentifier)")
                }
            } else if try !stored(member, sample) {
                throw SampleError.correlationMembers(
                    type: type.name, problem: "member \(member.uuid.lowercasedText) is neither in this save nor in the store")
            }
        }
        if let required = type.requiredMembers {
            let types = detail.members.map(\.typeIdentifier)
            guard types.count == required.count, Set(types) == Set(required) else {
                throw SampleError.correlationMembers(
                    type: type.name, problem: "it needs exactly one sample of each of \(required.joined(separator: ", "))")
            }
        }
    }
}
