import TextSupport

/// Errors about a sample's type, value or dates.
public enum SampleError: Error, Equatable, Sendable, CustomStringConvertible, LocalizedError {
    /// No type has this name; payload: the name and the known short names.
    case unknownType(String, known: [String])
    /// The value is NaN or infinite.
    case notFinite(type: String)
    /// A negative amount.
    case negative(Double, type: String)
    /// A non-zero amount too small to be a measurement (below a millionth of its unit); payload: the text typed.
    case tooSmall(String, type: String)
    /// Outside the plausible range for the type; payload: the amount and the range in the unit it was given in.
    case outOfRange(Double, unit: String, type: String, range: ClosedRange<Double>)
    /// The end is before the start.
    case endBeforeStart(start: String, end: String)
    /// Longer than the type allows (sleep: 24 h); payload: hours and allowed hours.
    case tooLong(type: String, hours: Double, maximumHours: Double)
    /// A category value the type does not have.
    case unknownCategoryValue(String, type: String, choices: [String])
    /// A quantity given for a category type or the other way round.
    case wrongKind(type: String, expected: String)
    /// A sample of a characteristic type (``CharacteristicType``), which holds a value of the person, never samples.
    case characteristicHasNoSamples(type: String)
    /// The sample ends after "now".
    case inFuture(end: String, now: String)
    /// A whole-number type (steps, flights, pushes) given a fraction when logged by hand; payload: the amount typed.
    case notWhole(String, type: String)
    /// A cumulative amount of zero logged by hand: nothing happened, so there is no sample; payload: the amount typed.
    case zeroAmount(String, type: String)
    /// A sample saved with a type identifier the catalogue does not have; payload: the identifier.
    case unknownTypeIdentifier(String)
    /// Two samples of one save share a uuid; payload: the uuid.
    case duplicateUUID(String)
    /// A sample's uuid is already in the store, or belonged to a sample deleted from it; payload: the uuid.
    case uuidInStore(String)
    /// A correlation's members do not fit its type, or are missing; payload: the correlation's name and what is wrong.
    case correlationMembers(type: String, problem: String)
    /// `HKMetadataKeySyncVersion` without `HKMetadataKeySyncIdentifier` (HealthKit raises an exception).
    case syncVersionWithoutIdentifier
    /// `HKMetadataKeySyncIdentifier` without `HKMetadataKeySyncVersion`; payload: the identifier.
    case syncIdentifierWithoutVersion(String)
    /// `HKMetadataKeySyncVersion` that is not a whole number; payload: the value as stored.
    case syncVersionNotWhole(String)

    public var description: String {
        switch self {
        case let .unknownType(name, known):
            // The few nearest names, not all of them: 'hkctl types' lists every one.
            let near = NameSuggestions.nearest(name, among: known, limit: 3)
            guard let best = near.first else {
                return "Unknown type '\(name)'; the catalogue lists the types (for example water, steps, weight, sleep)."
            }
            let others = near.dropFirst().map { "'\($0)'" }
            return "Unknown type '\(name)'; did you mean '\(best)'?" + (others.isEmpty ? "" : " (or \(others.joined(separator: ", ")))")
                + " The catalogue lists them all."
        case let .notFinite(type):
            return "The \(type) amount is not a finite number; give a real amount such as '500mL'."
        case let .negative(value, type):
            // `-0` as typed: it reads as 0, which is not negative.
            let shown = value == 0 ? "-0" : NumberFormatting.json(value)
            return "The \(type) amount \(shown) is negative; amounts must be zero or more."
        case let .tooSmall(text, type):
            return "The \(type) amount '\(text)' is too small to be a measurement; write it in a smaller unit (at least a millionth of the unit)."
        case let .outOfRange(value, unit, type, range):
            // A percentage is stored as a fraction (HealthKit's `percent` unit: 0.215 is 21.5 %); shown as typed.
            let scale = unit == "%" ? 100.0 : 1
            func shown(_ number: Double) -> String { NumberFormatting.json((number * scale * 1e9).rounded() / 1e9) }
            return "The \(type) amount \(shown(value)) \(unit) is outside the plausible range "
                + "\(shown(range.lowerBound))–\(shown(range.upperBound)) \(unit); check the number and its unit."
        case let .endBeforeStart(start, end):
            return "The end \(end) is before the start \(start); give the earlier time first."
        case let .tooLong(type, hours, maximumHours):
            return "A \(type) sample of \(NumberFormatting.human(hours, fractionDigits: 1)) hours is longer than the "
                + "\(NumberFormatting.json(maximumHours)) hours allowed; check the start and end."
        case let .unknownCategoryValue(text, type, choices):
            return "Unknown \(type) value '\(text)'; expected one of: \(choices.joined(separator: ", "))."
        case let .wrongKind(type, expected):
            return "A \(type) sample needs \(expected)."
        case let .characteristicHasNoSamples(type):
            return "\(type) is a characteristic, not a sample type: it has one value, read with the characteristic calls "
                + "(dateOfBirthComponents(), bloodType(), ...), and no samples to save or query."
        case let .inFuture(end, now):
            return "The sample ends at \(end), after now (\(now)); only what has already happened is recorded here."
        case let .notWhole(text, type):
            return "\(type.prefix(1).uppercased() + type.dropFirst()) are counted in whole numbers, and '\(text)' is not one; give a whole number such as '\(text.prefix { $0 != "." && $0 != "," })'."
        case let .zeroAmount(text, type):
            return "A \(type) amount of '\(text)' is nothing to log; give the amount you had (a wrong entry is deleted instead)."
        case let .unknownTypeIdentifier(identifier):
            return "No sample type has the identifier '\(identifier)'; use one of HealthKit's identifiers such as "
                + "HKQuantityTypeIdentifierStepCount (SampleTypeCatalogue.standard lists them)."
        case let .duplicateUUID(uuid):
            return "Two samples in one save have the uuid \(uuid); give each sample its own uuid."
        case let .uuidInStore(uuid):
            return "A sample with the uuid \(uuid) is already in the store (or was recently deleted from it); a saved sample "
                + "cannot be saved again: make a new sample, which gets a new uuid, for a new reading."
        case let .correlationMembers(type, problem):
            return "The \(type) correlation cannot be saved: \(problem); save the member samples in the same call as the correlation."
        case .syncVersionWithoutIdentifier:
            return "HKMetadataKeySyncVersion is given without HKMetadataKeySyncIdentifier; a sync version belongs to a "
                + "sync identifier: give both or neither."
        case let .syncIdentifierWithoutVersion(identifier):
            return "The sync identifier '\(identifier)' has no HKMetadataKeySyncVersion; give the version too (a whole "
                + "number; a higher one replaces the stored sample), as HealthKit requires."
        case let .syncVersionNotWhole(text):
            return "The sync version '\(text)' is not a whole number; give HKMetadataKeySyncVersion as a whole number such as 1 or 2."
        }
    }

    public var errorDescription: String? { description }
}
