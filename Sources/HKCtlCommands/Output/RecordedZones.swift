import HealthCore

/// `--tz recorded`: each sample shown in the zone it was recorded in (its `HKTimeZone` metadata, as the Health app
/// and `hkctl add` write it), else in the zone of the command. Zones are read from the tz database once each.
final class RecordedZones {
    private let database: ZoneDatabase
    private var cache: [String: ZoneRules?] = [:]

    init(database: ZoneDatabase) { self.database = database }

    /// The zone `sample` was recorded in, or `fallback` when it names none the database knows.
    func zone(of sample: Sample, fallback: ZoneRules) -> ZoneRules {
        guard case let .string(name)? = sample.metadata[MetadataKeyTimeZone] else { return fallback }
        if let known = cache[name] { return known ?? fallback }
        let found = database.zone(named: name)
        cache[name] = found
        return found ?? fallback
    }
}
