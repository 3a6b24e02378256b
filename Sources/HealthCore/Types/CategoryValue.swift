/// One value of a category type, such as the sleep stage `asleepCore` (raw value 3).
public struct CategoryValue: Hashable, Sendable {
    /// HealthKit's raw integer value.
    public let rawValue: Int
    /// HealthKit's Swift case name, used in JSON output (`inBed`, `asleepREM`).
    public let name: String
    /// The string an Apple Health export writes (`HKCategoryValueSleepAnalysisInBed`), plus older spellings.
    public let exportNames: [String]
    /// Short words for the value (`inbed`, `rem`), matched case-insensitively, for input typed by people.
    public let aliases: [String]
    /// For sleep analysis: whether this value is one of HealthKit's `allAsleepValues`.
    public let countsAsAsleep: Bool

    /// Creates a category value.
    public init(rawValue: Int, name: String, exportNames: [String], aliases: [String] = [], countsAsAsleep: Bool = false) {
        self.rawValue = rawValue
        self.name = name
        self.exportNames = exportNames
        self.aliases = aliases
        self.countsAsAsleep = countsAsAsleep
    }

    /// Whether `text` names this value (case name, export name or alias, case-insensitively).
    public func matches(_ text: String) -> Bool {
        let lowered = text.lowercased()
        return name.lowercased() == lowered || aliases.contains(lowered)
            || exportNames.contains { $0.lowercased() == lowered } || String(rawValue) == text
    }
}
