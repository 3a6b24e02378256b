/// What kind of writer a source is, guessed from its name (and device), for the default priority order.
///
/// The default order is ``wearable`` (a watch or band measures continuously and is worn when it counts), then
/// ``phone``, then ``app``, then ``manual`` (typed-in values are the likeliest duplicates of tracked data).
public enum SourceKind: Int, Comparable, CaseIterable, Sendable {
    /// A watch, band or other worn tracker.
    case wearable
    /// A phone.
    case phone
    /// Any other app or device.
    case app
    /// Data entered by hand: hkctl's own default source, or Apple's Health app.
    case manual

    public static func < (lhs: SourceKind, rhs: SourceKind) -> Bool { lhs.rawValue < rhs.rawValue }

    /// The name used in output (`wearable`).
    public var name: String {
        switch self {
        case .wearable: return "wearable"
        case .phone: return "phone"
        case .app: return "app"
        case .manual: return "manual"
        }
    }

    private static let wearableWords: Set<String> = [
        "watch", "band", "fitbit", "garmin", "whoop", "oura", "polar", "amazfit", "wearable", "tracker", "ring", "suunto",
        "coros", "wahoo",
    ]
    private static let phoneWords: Set<String> = ["iphone", "phone", "pixel", "galaxy", "android", "smartphone"]
    private static let manualWords: Set<String> = ["hkctl", "health", "manual"]

    /// Classifies a source by the words of its name and of its device description.
    ///
    /// `Jane’s Apple Watch` and a device `hardware:Watch6,2` are wearables; `iPhone` is a phone; `hkctl` and
    /// `Health` are manual entry; anything else is an app.
    ///
    /// - Parameters:
    ///   - name: The source name.
    ///   - device: A device description of one of its samples, if any.
    public static func classify(name: String, device: String? = nil) -> SourceKind {
        let words = Set(words(in: name))
        let deviceWords = Set(device.map { self.words(in: $0) } ?? [])
        if !words.isDisjoint(with: wearableWords) { return .wearable }
        if !words.isDisjoint(with: phoneWords) { return .phone }
        if !words.isDisjoint(with: manualWords) { return .manual }
        if !deviceWords.isDisjoint(with: wearableWords) { return .wearable }
        if !deviceWords.isDisjoint(with: phoneWords) { return .phone }
        return .app
    }

    /// Lower-cased runs of letters: `Watch6,2` gives `watch`; `Jane’s iPhone` gives `jane`, `s`, `iphone`.
    private static func words(in text: String) -> [String] {
        text.lowercased().split { !$0.isLetter }.map(String.init)
    }
}
