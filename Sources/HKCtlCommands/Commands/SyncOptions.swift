import HealthCore

/// `--sync-id ID [--sync-version N]` of `hkctl add`: HealthKit's sync identifier and version as metadata, and the
/// lines that say what a save with them did.
enum SyncOptions {
    /// `metadata` with the two sync keys from the options. The version defaults to 1 with `--sync-id` (HealthKit
    /// requires one; a cron line is simpler without it).
    ///
    /// - Throws: ``UsageError`` for `--sync-version` without `--sync-id`, a version that is not a whole number from 0
    ///   to 2^53, or a key also given with `--meta`.
    static func metadata(_ arguments: ParsedArguments, adding metadata: [String: MetadataValue],
                         command: String) throws -> [String: MetadataValue] {
        let identifier = arguments.value("sync-id"), versionText = arguments.value("sync-version")
        guard identifier != nil || versionText != nil else { return metadata }
        guard let identifier else {
            throw UsageError(message: "--sync-version needs --sync-id: a version belongs to a sync identifier", command: command)
        }
        guard metadata[MetadataKeySyncIdentifier] == nil && metadata[MetadataKeySyncVersion] == nil else {
            throw UsageError(message: "Give the sync identifier with --sync-id or with --meta, not both", command: command)
        }
        guard !identifier.isEmpty, identifier.count <= 1024, TextRules.metadataProblem(key: MetadataKeySyncIdentifier,
                                                                                      value: .string(identifier)) == nil else {
            throw UsageError(message: "The value '\(TextRules.shown(identifier))' is invalid for '--sync-id <id>': give 1 to 1024 printable characters", command: command)
        }
        var version = 1.0
        if let versionText {
            guard let number = StrictNumber.parse(versionText), number >= 0, number == number.rounded(), number <= 9_007_199_254_740_992 else {
                throw UsageError(message: "The value '\(TextRules.shown(versionText))' is invalid for '--sync-version <n>': give a whole number such as 2", command: command)
            }
            version = number
        }
        var result = metadata
        result[MetadataKeySyncIdentifier] = .string(identifier)
        result[MetadataKeySyncVersion] = .number(version)
        return result
    }

    /// Says on standard error (unless quiet) what a save with a sync identifier did; false when nothing was saved.
    static func report(_ outcome: SaveOutcome, _ sample: Sample, context: CommandContext) -> Bool {
        if !outcome.unchanged.isEmpty {
            context.console.note(unchangedLine(sample))
            return false
        }
        if !outcome.replaced.isEmpty {
            context.console.note(replacedLine(sample, count: outcome.replaced.count))
        } else if sample.metadata[MetadataKeySyncIdentifier] != nil {
            context.console.note("Added: sync id '\(syncID(sample))' at version \(version(sample)).")
        }
        return true
    }

    /// `Unchanged: ...`: the store holds this sync identifier at this version or a newer one.
    static func unchangedLine(_ sample: Sample) -> String {
        "Unchanged: a sample with sync id '\(syncID(sample))' at version \(version(sample)) or newer is already stored; nothing saved."
    }

    /// `Replaced ...`: the sample replaced the stored one with its sync identifier.
    static func replacedLine(_ sample: Sample, count: Int) -> String {
        "Replaced the stored sample with sync id '\(syncID(sample))' by version \(version(sample))"
            + (count > 1 ? " (\(count) samples with its members)" : "") + "; 'hkctl undo' takes it back."
    }

    private static func syncID(_ sample: Sample) -> String { TextRules.shown(sample.metadata[MetadataKeySyncIdentifier]?.text ?? "") }
    private static func version(_ sample: Sample) -> String { sample.metadata[MetadataKeySyncVersion]?.text ?? "" }
}
