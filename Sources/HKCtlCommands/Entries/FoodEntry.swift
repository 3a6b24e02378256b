import HealthCore
import HKCtlSupport
import TextSupport

/// A food entry as a person types it (a name, and amounts as text such as `350kcal` and `12g`), before it becomes a
/// food correlation of dietary samples.
///
/// Each amount becomes a sample of its dietary type (energy → `DietaryEnergyConsumed`, protein → `DietaryProtein`,
/// ...), all at the same instant and with the food's name in `HKFoodType`, on the correlation and on each member, so
/// statistics of one dietary type can select a food by its `HKFoodType` metadata. A zero amount (0 mg of caffeine)
/// is recorded: it says the food has none.
struct FoodEntry: Sendable {
    /// The food's name.
    var name: String
    /// Amounts by type name (`dietary-energy`, `protein`, `carbs`, ...) or identifier, as typed (`350kcal`).
    var amounts: [(type: String, amount: String)]
    /// When it was eaten (default: now).
    var at: TimeExpression?
    /// Further metadata.
    var metadata: [String: MetadataValue]

    /// Creates an entry.
    init(name: String, amounts: [(type: String, amount: String)], at: TimeExpression? = nil,
                metadata: [String: MetadataValue] = [:]) {
        self.name = name
        self.amounts = amounts
        self.at = at
        self.metadata = metadata
    }

    /// The samples to save in one batch: one per amount, then the correlation.
    ///
    /// - Throws: ``CorrelationError``, ``UnitError``, ``SampleError`` naming what is wrong.
    func samples(source: String, context: TimeContext, catalogue: SampleTypeCatalogue = .standard) throws -> [Sample] {
        let trimmed = name.trimmingSpaces()
        guard !trimmed.isEmpty else { throw CorrelationError.missingFoodName }
        guard !amounts.isEmpty else { throw CorrelationError.emptyFood(trimmed) }
        var metadata = self.metadata
        metadata[CorrelationType.foodTypeKey] = .string(trimmed)
        let date = at?.date ?? context.now
        var members: [Sample] = []
        for (typeName, amount) in amounts {
            let type = try catalogue.type(named: typeName)
            guard type.kind == .quantity, CorrelationType.food.allows(member: type.identifier) else {
                throw CorrelationError.notANutrient(typeName)
            }
            let quantity = try QuantityInput.parse(amount, for: type)
            members.append(try Sample(typeIdentifier: type.identifier, start: date, end: date, value: .quantity(quantity),
                                      source: source, created: context.now, metadata: metadata)
                .validated(as: type, now: context.now, timeZone: context.timeZone))
        }
        return members + [Correlation.sample(of: .food, members: members, start: date, end: date, source: source,
                                             created: context.now, metadata: metadata)]
    }
}
