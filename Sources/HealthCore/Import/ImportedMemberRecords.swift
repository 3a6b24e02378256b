/// The records of the types a correlation may hold (blood pressure, dietary) that an import added, by uuid, with
/// whether each was kept generically.
///
/// An export writes a correlation's records at top level too, before the correlation: when the correlation carries
/// sync keys of its own and is not saved for its version (an older export imported after a newer one), the records
/// the import added for it were that older version's, and go with it (``SyncReplacement/Plan/discarded``). Only
/// these types are kept: 20 to 40 bytes a record, for the food and blood pressure records an export holds.
struct ImportedMemberRecords {
    /// Whether each type key (see ``HealthImporter/count(_:typeKey:_:)``) is a type a correlation may hold: 0 not
    /// known yet, 1 yes, 2 no.
    private var byKey: [UInt8] = []
    private var byName: [String: Bool] = [:]
    /// The records added, typed (in a ``UUIDSet``) and kept generically.
    private var typed = UUIDSet()
    private var generic = Set<UUID>()
    /// Those taken out again (``forget(_:)``).
    private var forgotten = Set<UUID>()

    /// Notes that the import added the record `uuid` of `type` (`typeKey`, when not 0, stands for it).
    mutating func note(_ uuid: UUID, type: String, typeKey: Int = 0, generic: Bool) {
        if typeKey > 0 {
            if typeKey >= byKey.count { byKey += [UInt8](repeating: 0, count: typeKey + 1 - byKey.count) }
            if byKey[typeKey] == 0 { byKey[typeKey] = Self.isMemberType(type) ? 1 : 2 }
            guard byKey[typeKey] == 1 else { return }
        } else {
            if let known = byName[type] {
                guard known else { return }
            } else {
                let isMember = Self.isMemberType(type)
                byName[type] = isMember
                guard isMember else { return }
            }
        }
        if generic { self.generic.insert(uuid) } else { typed.insert(uuid) }
    }

    /// Whether the import added `uuid` (and did not take it out again).
    func holds(_ uuid: UUID) -> Bool { (typed.contains(uuid) || generic.contains(uuid)) && !forgotten.contains(uuid) }

    /// Forgets `uuid`, taken out of the store again; whether it was kept generically, nil when it was not noted.
    mutating func forget(_ uuid: UUID) -> Bool? {
        guard holds(uuid) else { return nil }
        forgotten.insert(uuid)
        return generic.contains(uuid)
    }

    /// Whether `type` is a type a correlation may hold.
    static func isMemberType(_ type: String) -> Bool {
        CorrelationType.all.contains { $0.allows(member: type) }
    }
}
