/// Which source saved a sample, and which version of it: HealthKit's `HKSourceRevision`.
public struct SourceRevision: Hashable, Sendable {
    /// The source, as `HKSourceRevision.source`.
    public let source: Source
    /// The source's version when it saved the sample (an app or OS version), if known.
    public let version: String?

    /// A revision of `source`, as `HKSourceRevision(source:version:)`.
    public init(source: Source, version: String?) {
        self.source = source
        self.version = version
    }
}
