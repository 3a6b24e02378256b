/// A record an import counted as present because a stored sample of its identity was left over for it (an identical
/// twin under another uuid, such as a copy an undone delete restored), kept while a later record of the input may
/// still claim that same stored sample by its uuid. Then this one is added after all (``IdentityIndex``).
struct HeldRecord {
    /// What is needed to add it.
    enum Content {
        /// A sample (the store's jsonl, or a record of an export read the general way); `generic` when kept untyped.
        case sample(Sample, generic: Bool)
        /// A record read straight from an export's bytes, as its store line without the `,"seq":N}` ending.
        case line([UInt8], long: Bool)
        /// A record of a dry run: only counted, with the sample it would be stored as when the dry run needs it
        /// (``HealthImporter/dryRunHAE``).
        case counted(Sample?)
    }

    var type: String
    /// The number standing for `type` in the importer's counts (0: none).
    var typeKey: Int
    var start: Date
    var end: Date
    /// The uuid it is added under.
    var uuid: UUID
    /// The uuid of its identity (``RecordIdentity``).
    var identity: UUID
    var content: Content
}
