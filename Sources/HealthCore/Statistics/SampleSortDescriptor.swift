/// One sort key of a ``SampleQueryDescriptor`` or a ``SampleQuery``: a `SortComparator` of samples.
///
/// The descriptors take any `SortComparator` of their kind, so HealthKit code that imports Foundation keeps
/// `SortDescriptor(\QuantitySample.startDate, order: .reverse)` unchanged. This type is the same thing without
/// Foundation's `SortDescriptor` (which is not in FoundationEssentials, all that HealthCore links on Linux), and it is
/// what `NSSortDescriptor` becomes for the handler-based ``SampleQuery``:
/// `NSSortDescriptor(key: HKSampleSortIdentifierStartDate, ascending: false)` is
/// `SampleSortDescriptor(key: SampleSortIdentifierStartDate, ascending: false)`.
public struct SampleSortDescriptor<Kind: HealthSample>: SortComparator, @unchecked Sendable {
    /// Ascending (`.forward`) or descending (`.reverse`): Foundation's `SortOrder`.
    public typealias Order = SortOrder

    /// Ascending or descending; changing it reverses the comparison, as for any `SortComparator`.
    public var order: SortOrder
    /// What the descriptor sorts by, for equality and hashing: a key path, a key, or the comparator it wraps.
    private let key: AnyHashable
    /// Compares two samples in ascending order. The key paths and comparators it holds are never changed, hence
    /// `@unchecked Sendable`.
    private let ascending: (Kind, Kind) -> ComparisonResult

    /// Sorts by the value at `keyPath`: `\.startDate`, `\.endDate`, `\.sourceName` of any kind, and the kind's own
    /// properties (`\.created` of a ``Sample``).
    public init<Value: Comparable>(_ keyPath: KeyPath<Kind, Value>, order: SortOrder = .forward) {
        self.order = order
        key = AnyHashable(keyPath)
        ascending = { first, second in
            let (a, b) = (first[keyPath: keyPath], second[keyPath: keyPath])
            return a < b ? .orderedAscending : b < a ? .orderedDescending : .orderedSame
        }
    }

    /// Sorts by the value at `keyPath`, as `NSSortDescriptor(keyPath:ascending:)`:
    /// `NSSortDescriptor(keyPath: \HKSample.startDate, ascending: false)` is
    /// `SampleSortDescriptor(keyPath: \Sample.startDate, ascending: false)`.
    public init<Value: Comparable>(keyPath: KeyPath<Kind, Value>, ascending: Bool) {
        self.init(keyPath, order: ascending ? .forward : .reverse)
    }

    /// The order of any `SortComparator` of the kind, such as Foundation's `SortDescriptor`; its own order is kept.
    public init<Comparator: SortComparator>(_ comparator: Comparator) where Comparator.Compared == Kind {
        if let descriptor = comparator as? SampleSortDescriptor<Kind> {
            self = descriptor
            return
        }
        // The comparator compares in its own order; this descriptor's order applies on top, forward to begin with.
        order = .forward
        key = AnyHashable(comparator)
        ascending = { comparator.compare($0, $1) }
    }

    public func compare(_ lhs: Kind, _ rhs: Kind) -> ComparisonResult {
        let result = ascending(lhs, rhs)
        guard order == .reverse else { return result }
        switch result {
        case .orderedAscending: return .orderedDescending
        case .orderedDescending: return .orderedAscending
        case .orderedSame: return .orderedSame
        }
    }

    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.key == rhs.key && lhs.order == rhs.order }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(key)
        hasher.combine(order)
    }
}

/// The key of a sample's start date, for ``SampleSortDescriptor/init(key:ascending:)``: HealthKit's
/// `HKSampleSortIdentifierStartDate`.
public let SampleSortIdentifierStartDate = "startDate"
/// The key of a sample's end date: HealthKit's `HKSampleSortIdentifierEndDate`.
public let SampleSortIdentifierEndDate = "endDate"

extension SampleSortDescriptor where Kind == HealthSample {
    /// Sorts by a sample key, as `NSSortDescriptor(key:ascending:)` does for HealthKit's `HKSampleQuery`.
    ///
    /// The keys are HealthKit's sort identifiers, ``SampleSortIdentifierStartDate`` and ``SampleSortIdentifierEndDate``.
    /// As an `NSSortDescriptor` with a key the object does not have raises an exception, any other key is a
    /// programming error that stops the program (a precondition failure).
    ///
    /// - Parameters:
    ///   - key: ``SampleSortIdentifierStartDate`` or ``SampleSortIdentifierEndDate``.
    ///   - ascending: Oldest first when true, newest first when false.
    public init(key: String, ascending: Bool) {
        let order: SortOrder = ascending ? .forward : .reverse
        switch key {
        case SampleSortIdentifierStartDate: self.init(\HealthSample.startDate, order: order)
        case SampleSortIdentifierEndDate: self.init(\HealthSample.endDate, order: order)
        default:
            preconditionFailure("SampleSortDescriptor(key:ascending:): '\(key)' is not a sample sort key; use "
                + "SampleSortIdentifierStartDate or SampleSortIdentifierEndDate")
        }
    }
}
