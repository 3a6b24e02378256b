import HealthCore

/// The names under which add, list, stats and types reach workouts and correlations, which are not in the
/// quantity and category catalogue.
enum CompositeNames {
    /// `workout`, `workouts` or `HKWorkoutTypeIdentifier`, in any case.
    static func isWorkout(_ name: String) -> Bool {
        ["workout", "workouts", Workout.typeIdentifier.lowercased()].contains(name.lowercased())
    }

    /// `mood`, `moods`, `state-of-mind` or `HKDataTypeStateOfMind`, in any case: HealthKit's state of mind.
    static func isMood(_ name: String) -> Bool {
        ["mood", "moods", "state-of-mind", StateOfMind.typeIdentifier.lowercased()].contains(name.lowercased())
    }

    /// Correlation types are never asked for, as in HealthKit: their member types are.
    static func correlationPermission(_ type: CorrelationType, command: String) -> UsageError {
        let members = type.requiredMembers.map { _ in "systolic,diastolic" } ?? "dietary-energy,protein,..."
        return UsageError(message: "\(type.name) is a correlation: permissions are given for its member types; use '\(members)' instead", command: command)
    }

    /// The `--meta KEY=VALUE` options as metadata, each value kept as typed: a number only where the text is the
    /// number's canonical spelling (``MetadataValue/init(typed:)``), so `007` and `1.10` stay text.
    static func metadata(_ arguments: ParsedArguments, command: String) throws -> [String: MetadataValue] {
        var metadata: [String: MetadataValue] = [:]
        for pair in arguments.values["meta"] ?? [] {
            guard let equals = pair.firstIndex(of: "="), equals != pair.startIndex else {
                throw UsageError(message: "The value '\(pair)' is invalid for '--meta <key=value>'", command: command)
            }
            let key = String(pair[..<equals])
            let text = String(pair[pair.index(after: equals)...])
            guard key.count <= 128, text.count <= 1024, !(key + text).unicodeScalars.contains("\u{FFFD}") else {
                throw UsageError(message: "A --meta key must be 1 to 128 and its value at most 1024 printable characters (valid UTF-8)", command: command)
            }
            if let problem = TextRules.metadataProblem(key: key, value: .string(text)) {
                throw UsageError(message: "The value '\(TextRules.shown(pair))' is invalid for '--meta <key=value>': \(problem)", command: command)
            }
            metadata[key] = MetadataValue(typed: text)
        }
        return metadata
    }

    /// The nutrient flags of `add food`, with the catalogue type each one logs.
    static let nutrientFlags: [(flag: String, type: String)] = [
        ("energy", "dietary-energy"), ("protein", "protein"), ("carbs", "carbs"), ("fat", "fat"), ("sugar", "sugar"),
        ("fiber", "fiber"), ("sodium", "sodium"), ("caffeine", "caffeine"),
    ]

    /// Options only workouts or food take, refused for other types.
    static let compositeOnlyOptions = ["energy", "distance", "indoor", "protein", "carbs", "fat", "sugar", "fiber", "sodium",
                                       "caffeine", "nutrient"]
}
