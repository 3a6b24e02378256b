extension Sample {
    /// The metadata key with which a corrected copy of a sample (``markAsCorrection(of:catalogue:)``) names the sample it stands
    /// for: an import that meets that sample's record again (the same export, or a later one holding it) finds the
    /// record corrected, rather than bringing the uncorrected value back beside the correction. A key of the
    /// library's own (`@`), kept through exports and imports of the store.
    public static let correctsKey = "@corrects"
    /// The metadata key with which a correction names the identity an import gives the record of the sample it
    /// corrects (``markAsCorrection(of:catalogue:)``): found also when that sample was stored under another uuid (by
    /// an older build, whose identity rule differed).
    public static let correctsIdentityKey = "@correctsIdentity"
    /// The keys a correction adds to the metadata of the sample it corrects (``correctsKey``, ``correctsIdentityKey``).
    public static let correctionKeys: Set<String> = [correctsKey, correctsIdentityKey]

    /// Marks this sample as the correction of `old` (which it replaces): it names `old`'s uuid and the identity of
    /// its record, or, when `old` is a correction itself, what `old` names (the first of a chain of corrections, which
    /// is the one an export's record is). `catalogue`: the store's, whose types the identity reads.
    public mutating func markAsCorrection(of old: Sample, catalogue: SampleTypeCatalogue = .standard) {
        if let first = old.metadata[Sample.correctsKey] {
            metadata[Sample.correctsKey] = first
            metadata[Sample.correctsIdentityKey] = old.metadata[Sample.correctsIdentityKey]
            return
        }
        metadata[Sample.correctsKey] = .string(old.uuid.lowercasedText)
        var identity = RecordIdentity(catalogue: catalogue)
        metadata[Sample.correctsIdentityKey] = .string(identity.uuid(for: old).lowercasedText)
    }

    /// The uuid this sample names as the one it corrects (``markAsCorrection(of:catalogue:)``), and that sample's
    /// record identity when named; nil when it corrects none.
    var corrected: (uuid: UUID, identity: UUID?)? {
        guard !metadata.isEmpty, case let .string(text)? = metadata[Sample.correctsKey], let uuid = UUID(uuidString: text) else { return nil }
        guard case let .string(identity)? = metadata[Sample.correctsIdentityKey] else { return (uuid, nil) }
        return (uuid, UUID(uuidString: identity))
    }
}
