extension Sample {
    /// The metadata key with which a corrected copy of a sample (``markAsCorrection(of:)``) names the sample it stands
    /// for: an import that meets that sample's record again (the same export, or a later one holding it) finds the
    /// record corrected, rather than bringing the uncorrected value back beside the correction. A key of the
    /// library's own (`@`), kept through exports and imports of the store.
    public static let correctsKey = "@corrects"

    /// Marks this sample as the correction of `old` (which it replaces): it names `old`'s uuid, or, when `old` is a
    /// correction itself, the sample `old` names (the first of a chain of corrections, which is the one an export's
    /// record is).
    public mutating func markAsCorrection(of old: Sample) {
        metadata[Sample.correctsKey] = old.metadata[Sample.correctsKey] ?? .string(old.uuid.lowercasedText)
    }

    /// The uuid this sample names as the one it corrects (``markAsCorrection(of:)``), if any.
    var correctedUUID: UUID? {
        guard !metadata.isEmpty, case let .string(text)? = metadata[Sample.correctsKey] else { return nil }
        return UUID(uuidString: text)
    }
}
