import HealthCore
import TextSupport

/// Daily goals kept in the store's `goals.json`: water 2 L, steps 10,000, sleep 8 h.
///
/// A goal is a daily total, so it exists for cumulative quantity types (water, steps, active energy) and for
/// sleep (hours asleep a night). Types without a goal of their own use ``defaults``; a goal set to a value
/// replaces the default, and unsetting it brings the default back.
package struct Goals: Codable, Equatable, Sendable {
    /// One goal as stored: a number in a HealthKit unit string.
    package struct Amount: Codable, Equatable, Sendable {
        /// The number.
        package var value: Double
        /// The unit string it was given in (`L`, `count`, `hr`).
        package var unit: String
    }

    /// Type short name → goal.
    package var amounts: [String: Amount] = [:]

    /// The goals that apply when none was set: 2 L of water, 10,000 steps and 8 hours of sleep.
    package static let defaults: [String: Quantity] = [
        "water": Quantity(2, try! HealthUnit(parsing: "L")),
        "steps": Quantity(10_000, .count()),
        "sleep": Quantity(8, .hour()),
    ]

    /// Creates goals with nothing set (the defaults apply).
    package init() {}

    /// Decodes `goals.json`; a missing `amounts` key means nothing set.
    package init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        amounts = try container.decodeIfPresent([String: Amount].self, forKey: .amounts) ?? [:]
    }

    /// The goal for `type`: the one set, else the default, else nil. A stored goal that is not a positive finite
    /// number (a hand-edited `goals.json`) is ignored, so it can never reach a chart.
    package func goal(for type: SampleType) -> Quantity? {
        if let amount = amounts[type.name], amount.value.isFinite, amount.value > 0, amount.value < 1e15,
           let unit = try? HealthUnit(parsing: amount.unit) {
            return Quantity(amount.value, unit)
        }
        return Goals.defaults[type.name]
    }

    /// The goal for `type` in `unit` (seconds for sleep when `unit` is nil), or nil.
    package func goal(for type: SampleType, in unit: HealthUnit?) -> Double? {
        guard let quantity = goal(for: type) else { return nil }
        return try? quantity.value(in: unit ?? .second())
    }

    /// Whether the goal for `type` is the default rather than one that was set.
    package func isDefault(for type: SampleType) -> Bool { amounts[type.name] == nil }

    /// Sets the goal of the type named `typeName` from an amount as typed (`2L`, `10000`, `7.5h`).
    ///
    /// - Returns: The type and the goal as stored.
    /// - Throws: ``GoalError`` when the type takes no goal or the amount is not positive; unit errors when the
    ///   amount does not measure the type.
    @discardableResult
    package mutating func set(_ typeName: String, to text: String, catalogue: SampleTypeCatalogue) throws
        -> (type: SampleType, goal: Quantity) {
        let type = try Goals.goalType(typeName, catalogue: catalogue)
        let quantity = try Goals.parse(text, for: type)
        amounts[type.name] = Amount(value: quantity.value, unit: quantity.unit.unitString)
        return (type, quantity)
    }

    /// Removes the goal of the type named `typeName` (its default applies again).
    ///
    /// - Throws: ``GoalError/notApplicable(type:)`` or an unknown-type error.
    package mutating func unset(_ typeName: String, catalogue: SampleTypeCatalogue) throws {
        amounts[try Goals.goalType(typeName, catalogue: catalogue).name] = nil
    }

    /// Every type with a goal (set or default), sorted by name.
    package func entries(catalogue: SampleTypeCatalogue) -> [(type: SampleType, goal: Quantity, isDefault: Bool)] {
        let names = Set(amounts.keys).union(Goals.defaults.keys).sorted()
        return names.compactMap { name in
            guard let type = try? catalogue.type(named: name), let goal = goal(for: type) else { return nil }
            return (type, goal, isDefault(for: type))
        }
    }

    /// Whether `type` can have a goal: a cumulative quantity type, or sleep.
    package static func acceptsGoal(_ type: SampleType) -> Bool {
        type.isSleepAnalysis || (type.kind == .quantity && (type.aggregation?.isCumulative ?? false))
    }

    private static func goalType(_ name: String, catalogue: SampleTypeCatalogue) throws -> SampleType {
        let type = try catalogue.type(named: name)
        guard acceptsGoal(type) else { throw GoalError.notApplicable(type: type.name) }
        return type
    }

    /// Reads a goal amount: the type's amount syntax, or a duration in hours or minutes for sleep.
    private static func parse(_ text: String, for type: SampleType) throws -> Quantity {
        let quantity: Quantity
        if type.isSleepAnalysis {
            quantity = try QuantityInput.parse(text, for: SleepGoalType.hours)
        } else {
            quantity = try QuantityInput.parse(text, for: type)
        }
        guard quantity.value > 0, quantity.value.isFinite else { throw GoalError.notPositive(text) }
        // A goal of counted steps or flights is whole, as `add` has them (a table showed 8000.5 as 8,000).
        if type.canonicalUnit?.unitString == "count", quantity.unit.unitString == "count", quantity.value != quantity.value.rounded() {
            throw SampleError.notWhole(text, type: type.name)
        }
        // A daily goal is at most what a day can hold: 24 hours of sleep, or the type's largest valid amount.
        let (unit, maximum): (HealthUnit?, Double?) = type.isSleepAnalysis ? (.hour(), 24) : (type.canonicalUnit, type.validRange?.upperBound)
        if let unit, let maximum {
            let value = try quantity.value(in: unit)
            guard value.isFinite, value <= maximum else {
                throw GoalError.tooLarge(text, maximum: NumberFormatting.json(maximum) + " " + (type.isSleepAnalysis ? "h" : unit.unitString))
            }
        }
        return quantity
    }
}

/// A stand-in quantity type measured in time, so sleep goals read like other amounts (`8h`, `450min`).
private enum SleepGoalType {
    static let hours = SampleType.quantity("hkctl.sleepGoal", name: "sleep", title: "Sleep", aggregation: .cumulative,
                                           unit: "hr", examples: ["8h", "7.5h", "450min"])
}
