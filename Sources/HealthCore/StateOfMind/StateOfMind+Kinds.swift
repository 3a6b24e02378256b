// HealthKit's names and raw values, from HealthKit's HKStateOfMind.h (iOS 18.2 SDK: `HKStateOfMindValenceClassification`,
// `HKStateOfMindLabel`, `HKStateOfMindAssociation`, `HKStateOfMindKind`, each `NS_ENUM(NSInteger, ...)` counting
// from 1) and the documentation pages "HKStateOfMind.Label", "HKStateOfMind.Association" and
// "HKStateOfMind.ValenceClassification" (developer.apple.com/documentation/healthkit/hkstateofmind).

extension StateOfMind {
    /// The period a state of mind concerns, as HealthKit's `HKStateOfMind.Kind`: an emotion felt now, or the mood of
    /// a day.
    public enum Kind: Int, Hashable, Sendable, CaseIterable {
        case momentaryEmotion = 1, dailyMood = 2

        /// The Swift case name (`dailyMood`), used in store lines and output.
        public var name: String { String(describing: self) }
    }

    /// A general region of pleasantness, as HealthKit's `HKStateOfMind.ValenceClassification`.
    public enum ValenceClassification: Int, Hashable, Sendable, CaseIterable {
        case veryUnpleasant = 1, unpleasant, slightlyUnpleasant, neutral, slightlyPleasant, pleasant, veryPleasant

        /// The Swift case name (`slightlyPleasant`).
        public var name: String { String(describing: self) }

        /// The classification of `valence`, as HealthKit's `init?(valence:)`; nil outside -1...1 (or not finite).
        ///
        /// HealthKit does not publish where its bands meet; HealthCore splits -1...1 into seven bands of equal width
        /// (2/7), a value on an edge belonging to the band above it and 1 to `veryPleasant`.
        public init?(valence: Double) {
            guard valence.isFinite, (-1...1).contains(valence) else { return nil }
            let band = min(6, Int(((valence + 1) / 2 * 7).rounded(.down)))
            self.init(rawValue: band + 1)
        }

        /// The middle of the band: the valence a person's word for it (`pleasant`) stands for.
        public var representativeValence: Double { -1 + Double(2 * (rawValue - 1) + 1) / 7 }
    }

    /// A word for a felt experience, as HealthKit's `HKStateOfMind.Label`, with its raw values.
    public enum Label: Int, Hashable, Sendable, CaseIterable {
        case amazed = 1, amused, angry, anxious, ashamed, brave, calm, content, disappointed, discouraged, disgusted
        case embarrassed, excited, frustrated, grateful, guilty, happy, hopeless, irritated, jealous, joyful, lonely
        case passionate, peaceful, proud, relieved, sad, scared, stressed, surprised, worried, annoyed, confident
        case drained, hopeful, indifferent, overwhelmed, satisfied

        /// The Swift case name (`grateful`).
        public var name: String { String(describing: self) }
    }

    /// A facet of life a felt experience is associated with, as HealthKit's `HKStateOfMind.Association`.
    public enum Association: Int, Hashable, Sendable, CaseIterable {
        case community = 1, currentEvents, dating, education, family, fitness, friends, health, hobbies, identity
        case money, partner, selfCare, spirituality, tasks, travel, work, weather

        /// The Swift case name (`selfCare`).
        public var name: String { String(describing: self) }
    }
}

/// Looks a case up by its name, in any case and with `-`, `_` or spaces anywhere (`self-care`, `SelfCare`,
/// `self_care` all name `selfCare`), or by its raw value written as a number.
protocol NamedCase: CaseIterable, RawRepresentable where RawValue == Int {
    var name: String { get }
}

extension NamedCase {
    /// The case `text` names, or nil.
    static func named(_ text: String) -> Self? {
        if let raw = Int(text) { return Self(rawValue: raw) }
        let wanted = folded(text)
        return allCases.first { folded($0.name) == wanted }
    }

    private static func folded(_ text: String) -> String {
        String(text.lowercased().filter { $0 != "-" && $0 != "_" && $0 != " " })
    }
}

extension StateOfMind.Kind: NamedCase {}
extension StateOfMind.ValenceClassification: NamedCase {}
extension StateOfMind.Label: NamedCase {}
extension StateOfMind.Association: NamedCase {}

extension StateOfMind.Kind {
    /// The kind `text` names (`dailyMood`, `daily-mood`, `2`), or nil.
    public init?(name text: String) { guard let kind = Self.named(text) else { return nil }; self = kind }
}

extension StateOfMind.ValenceClassification {
    /// The classification `text` names (`veryPleasant`, `very-pleasant`, `7`), or nil.
    public init?(name text: String) { guard let value = Self.named(text) else { return nil }; self = value }
}

extension StateOfMind.Label {
    /// The label `text` names (`grateful`, `3`), or nil.
    public init?(name text: String) { guard let label = Self.named(text) else { return nil }; self = label }
}

extension StateOfMind.Association {
    /// The association `text` names (`work`, `self-care`, `currentEvents`), or nil.
    public init?(name text: String) { guard let association = Self.named(text) else { return nil }; self = association }
}
