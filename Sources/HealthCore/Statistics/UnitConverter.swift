/// Converts readings to the output unit (one converter per stored unit) and notes their sources.
struct UnitConverter {
    /// Notes that source `index` gave a sample (one a summary counted).
    mutating func noteSource(_ index: Int) {
        while sourceSeen.count <= index { sourceSeen.append(false) }
        sourceSeen[index] = true
    }

    let unit: HealthUnit
    private var identity: [Bool?] = []
    /// Whether each source (by index in the names) gave a reading.
    private var sourceSeen: [Bool] = []

    init(unit: HealthUnit) { self.unit = unit }

    /// The sources that gave a reading, in index order.
    var seenSources: [Int] { sourceSeen.indices.filter { sourceSeen[$0] } }

    mutating func value(of reading: QuantityReading, names: ReadingNames) throws -> Double {
        if reading.source >= sourceSeen.count || !sourceSeen[reading.source] {
            while sourceSeen.count <= reading.source { sourceSeen.append(false) }
            sourceSeen[reading.source] = true
        }
        if reading.unit < identity.count, let same = identity[reading.unit], same { return reading.value }
        let from: HealthUnit
        if let parsed = names.parsedUnits[reading.unit] { from = parsed } else {
            from = try HealthUnit(parsing: names.units[reading.unit])
        }
        while identity.count <= reading.unit { identity.append(nil) }
        identity[reading.unit] = from == unit
        return try from.convert(reading.value, to: unit)
    }
}
