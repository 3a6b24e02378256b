import HealthCore
import HKCtlSupport
import TextSupport

/// `hkctl add mood <valence> [--labels a,b] [--about x,y] [--kind momentary|daily] [--at TIME]`: saves one state of
/// mind (HealthKit's `HKStateOfMind`).
enum AddMood {
    static let options: [OptionSpec] = [
        OptionSpec(name: "labels", valueName: "words", help: "Mood: words for the feeling, comma-separated (calm,grateful; see 'hkctl types mood')."),
        OptionSpec(name: "about", valueName: "areas", help: "Mood: what it concerns, comma-separated (work,family,self-care; see 'hkctl types mood')."),
        OptionSpec(name: "kind", valueName: "kind", help: "Mood: momentary (an emotion now, the default) or daily (the day's mood)."),
    ]
    /// The options only `add mood` takes.
    static let moodOnlyOptions = ["labels", "about", "kind"]

    /// The valence `text` stands for: a word of HealthKit's valence classification (`very-unpleasant` ...
    /// `very-pleasant`, `neutral`), the middle of its band, or a number from -1 to 1.
    static func valence(_ text: String) throws -> Double {
        if let number = Double(text), number.isFinite {
            guard (-1...1).contains(number) else {
                throw UsageError(message: "The valence \(text) is outside -1...1; give a number from -1 (very unpleasant) to 1 (very pleasant), or a word such as 'pleasant'", command: AddCommand.name)
            }
            return number
        }
        guard let band = StateOfMind.ValenceClassification(name: text), Int(text) == nil else {
            let words = StateOfMind.ValenceClassification.allCases.map { kebab($0.name) }.joined(separator: ", ")
            throw UsageError(message: "'\(text)' is not a mood; give one of \(words), or a number from -1 to 1", command: AddCommand.name)
        }
        return band.representativeValence
    }

    /// `veryPleasant` → `very-pleasant`.
    static func kebab(_ name: String) -> String {
        var text = ""
        for character in name {
            if character.isUppercase { text += "-" + character.lowercased() } else { text.append(character) }
        }
        return text
    }

    private static func list<T>(_ option: String, _ arguments: ParsedArguments, choices: [String], _ parse: (String) -> T?) throws -> [T] {
        guard let text = arguments.value(option) else { return [] }
        var items: [T] = []
        for word in text.split(separator: ",", omittingEmptySubsequences: false).map({ String($0).trimmingSpaces() }) {
            guard !word.isEmpty, Int(word) == nil, let item = parse(word) else {
                throw UsageError(message: "'\(word)' is not one of the --\(option) words: \(choices.joined(separator: ", "))", command: AddCommand.name)
            }
            items.append(item)
        }
        return items
    }

    static func run(_ arguments: ParsedArguments, context: CommandContext) throws {
        let words = Array(arguments.positionals.dropFirst())
        guard let word = words.first else {
            throw UsageError(message: "Missing expected argument '<valence>': write it like 'hkctl add mood pleasant' or 'hkctl add mood 0.4'", command: AddCommand.name)
        }
        guard words.count == 1 else { throw UsageError(message: "Unexpected argument '\(words[1])'", command: AddCommand.name) }
        if let option = (["from", "to", "stage", "on", "sync-id", "sync-version"] + CompositeNames.compositeOnlyOptions).first(where: arguments.has) {
            throw UsageError(message: "--\(option) does not apply to mood", command: AddCommand.name)
        }
        let valence = try valence(word)
        let labels = try list("labels", arguments, choices: StateOfMind.Label.allCases.map(\.name)) { StateOfMind.Label(name: $0) }
        let associations = try list("about", arguments, choices: StateOfMind.Association.allCases.map { kebab($0.name) }) {
            StateOfMind.Association(name: $0)
        }
        var kind = StateOfMind.Kind.momentaryEmotion
        if let text = arguments.value("kind") {
            switch text.lowercased() {
            case "momentary", "emotion", "momentary-emotion", "momentaryemotion": kind = .momentaryEmotion
            case "daily", "mood", "daily-mood", "dailymood": kind = .dailyMood
            default: throw UsageError(message: "The value '\(text)' is invalid for '--kind <kind>'; give momentary or daily", command: AddCommand.name)
            }
        }
        let time = context.globals.time
        let date = try arguments.value("at").map { try TimeExpression.parse($0, in: time).date } ?? time.now
        let metadata = AddCommand.recordingZone(in: try CompositeNames.metadata(arguments, command: AddCommand.name), context: context)
        let state = StateOfMind(date: date, kind: kind, valence: valence, labels: labels, associations: associations,
                                metadata: metadata)
        // The library stores a planned state of mind, as HealthKit does; hkctl records what has already happened.
        try state.validated(now: time.now, timeZone: time.timeZone)
        let store = try context.healthStore(recording: .add)
        try store.save([state.sample])
        let saved = try store.samples(ofType: StateOfMind.typeIdentifier,
                                       overlapping: DateInterval(start: state.startDate.addingTimeInterval(-0.001), end: state.startDate.addingTimeInterval(0.001)))
            .first { $0.uuid == state.uuid }.flatMap(StateOfMind.init) ?? state
        MoodOutput(context: context).print([saved], single: true)
    }
}
