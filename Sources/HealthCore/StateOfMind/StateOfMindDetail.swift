import TextSupport

/// What a state of mind holds beyond its kind and date (see ``StateOfMind``): valence, labels and associations.
/// Stored as the `"stateOfMind"` key of its line:
/// `"stateOfMind":{"valence":0.571,"labels":["calm","grateful"],"associations":["work"]}` (HealthKit's case names).
public struct StateOfMindDetail: Hashable, Sendable {
    /// From -1 (very unpleasant) to 1 (very pleasant).
    public var valence: Double
    /// The words chosen for the feeling.
    public var labels: [StateOfMind.Label]
    /// The parts of life it concerns.
    public var associations: [StateOfMind.Association]

    /// Creates a detail.
    public init(valence: Double, labels: [StateOfMind.Label] = [], associations: [StateOfMind.Association] = []) {
        self.valence = valence
        self.labels = labels
        self.associations = associations
    }

    // MARK: - Line form

    func json() -> String {
        "{\"valence\":" + NumberFormatting.json(valence)
            + ",\"labels\":[" + labels.map { "\"" + $0.name + "\"" }.joined(separator: ",") + "]"
            + ",\"associations\":[" + associations.map { "\"" + $0.name + "\"" }.joined(separator: ",") + "]}"
    }

    /// Reads the object written by ``json()``; an unknown label or association is an error (a later version's word
    /// would otherwise be lost when the line is written again).
    init(scanning scanner: inout JSONLineScanner) throws {
        var valence: Double?
        var labels: [StateOfMind.Label] = [], associations: [StateOfMind.Association] = []
        func names(_ scanner: inout JSONLineScanner) throws -> [String] {
            var items: [String] = []
            try scanner.expect(UInt8(ascii: "["))
            if scanner.peek() == UInt8(ascii: "]") { scanner.index += 1; return items }
            while true {
                items.append(try scanner.readString())
                if scanner.peek() == UInt8(ascii: ",") { scanner.index += 1; continue }
                try scanner.expect(UInt8(ascii: "]"))
                return items
            }
        }
        try scanner.readObject { scanner, key in
            switch key {
            case "valence": valence = try scanner.readNumber()
            case "labels":
                labels = try names(&scanner).map { name in
                    guard let label = StateOfMind.Label(name: name) else { throw LineError("unknown state of mind label '\(name)'") }
                    return label
                }
            case "associations":
                associations = try names(&scanner).map { name in
                    guard let association = StateOfMind.Association(name: name) else {
                        throw LineError("unknown state of mind association '\(name)'")
                    }
                    return association
                }
            default: try scanner.skipValue()
            }
        }
        guard let valence, valence.isFinite else { throw LineError("a state of mind needs a valence") }
        self.init(valence: valence, labels: labels, associations: associations)
    }
}
