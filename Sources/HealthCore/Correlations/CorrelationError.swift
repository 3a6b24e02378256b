/// Errors about a blood-pressure reading or a food entry.
public enum CorrelationError: Error, Equatable, Sendable, CustomStringConvertible, LocalizedError {
    /// The reading is not like `120/80`.
    case badBloodPressure(String)
    /// Diastolic above systolic: almost always the two numbers swapped.
    case diastolicAboveSystolic(systolic: String, diastolic: String)
    /// A food entry with no amount at all.
    case emptyFood(String)
    /// A food entry with an empty name.
    case missingFoodName
    /// A nutrient was named by a type that is not a dietary quantity; payload: the name.
    case notANutrient(String)

    public var description: String {
        switch self {
        case let .badBloodPressure(text):
            return "The blood pressure '\(text)' is not a reading; write systolic/diastolic like '120/80' (mmHg) or '16/10.7kPa'."
        case let .diastolicAboveSystolic(systolic, diastolic):
            return "The diastolic pressure \(diastolic) is above the systolic \(systolic); write the higher number first, like '120/80'."
        case let .emptyFood(name):
            return "The food '\(name)' has no amounts; give at least one, such as its energy or protein."
        case .missingFoodName:
            return "A food entry needs a name, such as \"Oatmeal\"."
        case let .notANutrient(name):
            return "'\(name)' is not a nutrient; use a dietary type such as protein, carbs, fat, sugar, fiber, sodium or caffeine."
        }
    }

    public var errorDescription: String? { description }
}
