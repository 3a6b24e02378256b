extension HealthUnit {
    private static let commonCompounds = [
        "count/min", "count/s", "mg/dL", "mmol<180.1558800000541>/L", "mL/(kg*min)", "kcal/hr", "kcal/(kg*hr)",
        "m/s", "km/hr", "mi/hr", "L/min",
    ]

    /// Unit strings that measure the same thing as `unit`: base units, common prefixed forms and common compounds,
    /// in a fixed order (for listings).
    public static func spellings(compatibleWith unit: HealthUnit) -> [String] {
        var candidates: [String] = []
        let usualPrefixes: [String: [String]] = [
            "g": ["k", "m", "mc"], "m": ["k", "c", "m"], "L": ["m", "d", "c"], "s": ["m"], "J": ["k"], "Pa": ["k", "h"],
        ]
        for base in BaseUnit.all {
            candidates.append(base.symbol)
            candidates += (usualPrefixes[base.symbol] ?? []).map { $0 + base.symbol }
        }
        candidates += commonCompounds
        var seen = Set<String>()
        return candidates.compactMap { text -> String? in
            guard let parsed = try? HealthUnit(parsing: text), parsed.isCompatible(with: unit),
                  seen.insert(parsed.unitString).inserted else { return nil }
            return parsed.unitString
        }
    }
}
