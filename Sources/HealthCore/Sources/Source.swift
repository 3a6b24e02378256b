/// A program or device that wrote samples: HealthKit's `HKSource`, as a ``SourceQuery`` returns it.
///
/// The store records one name per sample (``Sample/source``): a program's identifier, such as
/// `org.example.water-app`, or the name of a device or of the person at the terminal, such as `Jane’s Apple Watch` or
/// `hkctl`. HealthKit keeps a display name and a bundle identifier apart; here both are that recorded name.
public struct Source: Hashable, Sendable {
    /// The source's name, as `HKSource.name`.
    public let name: String
    /// The source's identifier, as `HKSource.bundleIdentifier`: the same recorded name.
    public let bundleIdentifier: String

    /// The source that samples record as `name` (``Sample/source``).
    public init(name: String) {
        self.name = name
        bundleIdentifier = name
    }
}
