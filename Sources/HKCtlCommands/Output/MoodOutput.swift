import HealthCore
import TextSupport

/// Renders states of mind (`add mood`, `list mood`).
struct MoodOutput {
    let context: CommandContext

    private func zone(of state: StateOfMind) -> ZoneRules {
        let zone = context.globals.time.timeZone
        return context.globals.recordedZones?.zone(of: state.sample, fallback: zone) ?? zone
    }

    /// `{"uuid","type","kind","valence","valenceClassification","labels":[…],"associations":[…],"start","end","source",
    /// "metadata"}`, HealthKit's case names.
    func json(_ state: StateOfMind) -> String {
        let zone = zone(of: state)
        var text = "{\"uuid\":\"\(state.uuid.lowercasedText)\",\"type\":\"\(StateOfMind.typeIdentifier)\""
        text += ",\"kind\":\"\(state.kind.name)\",\"valence\":" + NumberFormatting.json(state.valence)
        text += ",\"valenceClassification\":\"\(state.valenceClassification.name)\""
        text += ",\"labels\":[" + state.labels.map { "\"\($0.name)\"" }.joined(separator: ",") + "]"
        text += ",\"associations\":[" + state.associations.map { "\"\($0.name)\"" }.joined(separator: ",") + "]"
        text += ",\"start\":\"\(ISODate.format(state.startDate, in: zone))\",\"end\":\"\(ISODate.format(state.endDate, in: zone))\""
        text += ",\"source\":" + JSONText.quoted(state.sourceName)
        return text + MetadataJSON.field(state.metadataValues ?? [:]) + "}"
    }

    static let csvHeader = ["uuid", "start", "end", "kind", "valence", "valence_classification", "labels", "associations",
                            "source", "metadata"]

    private func csv(_ state: StateOfMind) -> String {
        let zone = zone(of: state)
        return CSV.row([
            state.uuid.lowercasedText, ISODate.format(state.startDate, in: zone), ISODate.format(state.endDate, in: zone),
            state.kind.name, NumberFormatting.json(state.valence), state.valenceClassification.name,
            state.labels.map(\.name).joined(separator: ";"), state.associations.map(\.name).joined(separator: ";"),
            state.sourceName, MetadataText.csvField(state.metadataValues ?? [:], userOnly: true),
        ])
    }

    /// Prints states of mind; `single` prints one JSON object instead of an array (for `add`).
    func print(_ states: [StateOfMind], single: Bool = false) {
        let console = context.console
        switch context.globals.format {
        case .json:
            let objects = states.map(json)
            if single, let only = objects.first { console.line(only) } else { console.line("[" + objects.joined(separator: ",") + "]") }
        case .csv:
            console.line(CSV.row(MoodOutput.csvHeader))
            for state in states { console.line(csv(state)) }
        case .table:
            if states.isEmpty {
                console.note("No moods in this range.")
                return
            }
            var table = TableWriter(headers: ["TIME", "KIND", "VALENCE", "FEELING", "LABELS", "ABOUT", "SOURCE", "UUID"],
                                    rightAligned: [2])
            for state in states {
                table.add([Display.time(state.startDate, in: zone(of: state)),
                           state.kind == .dailyMood ? "daily" : "momentary",
                           NumberFormatting.human(state.valence, fractionDigits: 2),
                           AddMood.kebab(state.valenceClassification.name),
                           state.labels.map(\.name).joined(separator: ", "),
                           state.associations.map { AddMood.kebab($0.name) }.joined(separator: ", "),
                           state.sourceName, state.uuid.lowercasedText])
            }
            for line in table.lines() { console.line(line) }
        }
    }

    /// `hkctl types mood`: the valence words (with the valence each stands for), labels and associations, with
    /// HealthKit's names and raw values.
    func printVocabulary() {
        var rows: [(group: String, word: String, name: String, raw: Int, valence: Double?)] = []
        for band in StateOfMind.ValenceClassification.allCases {
            rows.append(("valence", AddMood.kebab(band.name), band.name, band.rawValue, band.representativeValence))
        }
        for label in StateOfMind.Label.allCases { rows.append(("label", label.name, label.name, label.rawValue, nil)) }
        for association in StateOfMind.Association.allCases {
            rows.append(("about", AddMood.kebab(association.name), association.name, association.rawValue, nil))
        }
        func valence(_ value: Double?) -> String? { value.map { NumberFormatting.json(($0 * 1000).rounded() / 1000) } }
        switch context.globals.format {
        case .json:
            context.console.line("[" + rows.map { row in
                "{\"group\":\"\(row.group)\",\"word\":\"\(row.word)\",\"healthKitName\":\"\(row.name)\",\"rawValue\":\(row.raw),"
                    + "\"valence\":\(valence(row.valence) ?? "null")}"
            }.joined(separator: ",") + "]")
        case .csv:
            context.console.line("group,word,healthkit_name,raw_value,valence")
            for row in rows { context.console.line(CSV.row([row.group, row.word, row.name, String(row.raw), valence(row.valence) ?? ""])) }
        case .table:
            var table = TableWriter(headers: ["GROUP", "WORD", "HEALTHKIT", "RAW", "VALENCE"], rightAligned: [3, 4])
            for row in rows { table.add([row.group, row.word, row.name, String(row.raw), valence(row.valence) ?? "-"]) }
            for line in table.lines() { context.console.line(line) }
        }
    }
}
