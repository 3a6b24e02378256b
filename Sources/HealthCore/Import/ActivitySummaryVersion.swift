import TextSupport

/// A day's activity summary is one object that changes: HealthKit keeps one `HKActivitySummary` per day (its
/// `dateComponents`), and an export writes each day's summary as it stood when the export was made, in the phone's
/// energy unit of that moment. So an export made later can write a day again with fuller figures (the day was still
/// going) or in kJ where the first said kcal: the same summary, which must not be stored twice.
///
/// An import marks each `ActivitySummary` element with HealthKit's sync keys: `HKMetadataKeySyncIdentifier`
/// ``identifierPrefix`` + the day, and `HKMetadataKeySyncVersion` the export's date in whole seconds since 1970 (0
/// when the export has none). The store then keeps one summary a day by HealthKit's sync-version rule
/// (``SyncReplacement``): a later export's summary replaces the stored one, the same export again or an older one
/// leaves it. Keys an element already carries (read back from hkctl's own export, where they are metadata entries)
/// are kept; hkctl's own export of a summary without keys is version 0, never later than a phone's export. A later
/// export that writes a day as it is stored changes nothing (``sameFigures(_:_:)``). A summary stored by a build
/// before this rule has no keys: it stands under its day's key (``legacyMark(of:)``) with a version below any
/// export's, so the next import replaces it (also when that export is older: those builds kept no export date), and a
/// day such builds stored twice is stored once again.
enum ActivitySummaryVersion {
    /// The element an export writes a summary as.
    static let element = "ActivitySummary"
    /// The type a summary is stored under.
    static let typeIdentifier = "HKActivitySummaryTypeIdentifier"
    /// The attribute naming a summary's day (`yyyy-MM-dd`), as stored.
    static let dayAttribute = "@dateComponents"
    /// What a summary's sync identifier starts with; the day follows.
    static let identifierPrefix = "hkctl.ActivitySummary."

    /// Adds the sync keys to the metadata of an `ActivitySummary` element whose day is `day` (the text of its
    /// `dateComponents`, which names a day), unless it carries them; `exportDate`: the export's date, if it has one.
    static func mark(_ metadata: inout [String: MetadataValue], day: String, exportDate: Date?) {
        guard metadata[MetadataKeySyncIdentifier] == nil, metadata[MetadataKeySyncVersion] == nil,
              let day = canonicalDay(day) else { return }
        metadata[MetadataKeySyncIdentifier] = .string(identifierPrefix + day)
        metadata[MetadataKeySyncVersion] = .number(version(exportDate: exportDate))
    }

    /// Marks a summary that carries no sync keys (read from hkctl's own export by a build before they existed) as its
    /// day's in version 0: a summary from a dated export replaces it, and it replaces only one stored without keys.
    static func markUnmarked(_ sample: inout Sample) {
        guard case let .string(day)? = sample.metadata[dayAttribute], legacyMark(of: sample) != nil else { return }
        mark(&sample.metadata, day: day, exportDate: nil)
    }

    /// A day as `yyyy-MM-dd`, when `text` names one that exists (`2024-02-30` and `2024-5-30` do not); nil else.
    static func canonicalDay(_ text: String) -> String? {
        guard let parts = try? ISODate.components(text), !parts.hasTime else { return nil }
        return text
    }

    /// Whether two summaries of a day say the same (their source and attributes; the sync keys left aside): a later
    /// export writing a past day again as it was changes nothing, instead of replacing it with its copy.
    static func sameFigures(_ a: Sample, _ b: Sample) -> Bool {
        guard a.source == b.source else { return false }
        func attributes(_ sample: Sample) -> [String: MetadataValue] {
            sample.metadata.filter { $0.key.hasPrefix(RecordIdentity.attributePrefix) && $0.key != RecordIdentity.childrenKey }
        }
        return attributes(a) == attributes(b)
    }

    /// The version of a summary from an export made at `exportDate`: its whole seconds since 1970, 0 without one.
    static func version(exportDate: Date?) -> Double {
        guard let seconds = exportDate?.timeIntervalSince1970, seconds.isFinite, seconds > 0 else { return 0 }
        return seconds.rounded(.down)
    }

    /// The sync mark a stored summary without sync keys stands under: its day's key, with a version below any
    /// export's; nil for any other sample.
    static func legacyMark(of sample: Sample) -> SyncReplacement.Mark? {
        guard sample.typeIdentifier == typeIdentifier, case .string(element)? = sample.metadata[RecordIdentity.elementKey],
              case let .string(text)? = sample.metadata[dayAttribute], let day = canonicalDay(text) else { return nil }
        return SyncReplacement.Mark(key: SyncReplacement.Key(type: typeIdentifier, source: sample.source, identifier: identifierPrefix + day),
                                    version: -.infinity)
    }
}
