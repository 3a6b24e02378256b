import TextSupport

/// An element of an Apple Health export kept as written: its name, attributes in order, and children.
///
/// Parts of an export that the library does not type (the `WorkoutStatistics` and `WorkoutEvent` children of a workout,
/// the records inside a correlation, a heart-rate-variability beat list) are kept as nodes in the sample's
/// `@children` metadata, as compact JSON, so nothing is lost and a Health XML export can write them back.
struct ExportNode: Equatable, Sendable {
    struct Attribute: Equatable, Sendable {
        var name: String
        var value: String
    }

    var name: String
    var attributes: [Attribute]
    var children: [ExportNode] = []

    init(name: String, attributes: [Attribute], children: [ExportNode] = []) {
        self.name = name
        self.attributes = attributes
        self.children = children
    }

    /// A node for a tag (its children are added as they are read). Numbers and dates written in a locale's own
    /// digits are kept in ASCII digits (``LocalizedDigits``).
    init(_ tag: XMLTag) {
        name = tag.nameText
        attributes = tag.attributes.map { Attribute(name: $0.nameText, value: LocalizedDigits.ascii($0.value)) }
    }

    /// The value of the attribute `name`, if present.
    func attribute(_ name: String) -> String? { attributes.first { $0.name == name }?.value }

    // MARK: - JSON

    /// `[{"name":"WorkoutEvent","attributes":[["type","HKWorkoutEventTypePause"],...],"children":[...]}]`
    static func json(_ nodes: [ExportNode]) -> String {
        var text = "["
        for (index, node) in nodes.enumerated() {
            if index > 0 { text += "," }
            node.appendJSON(to: &text)
        }
        return text + "]"
    }

    private func appendJSON(to text: inout String) {
        text += "{\"name\":" + JSONText.quoted(name) + ",\"attributes\":["
        for (index, attribute) in attributes.enumerated() {
            if index > 0 { text += "," }
            text += "[" + JSONText.quoted(attribute.name) + "," + JSONText.quoted(attribute.value) + "]"
        }
        text += "]"
        if !children.isEmpty { text += ",\"children\":" + ExportNode.json(children) }
        text += "}"
    }

    /// Reads what ``json(_:)`` wrote.
    ///
    /// - Throws: A scanner failure when the text is not such JSON.
    static func nodes(fromJSON text: String) throws -> [ExportNode] {
        var text = text
        return try text.withUTF8 { bytes in
            var scanner = JSONLineScanner(bytes)
            return try readArray(&scanner, depth: 0)
        }
    }

    /// Reads an array of nodes `depth` levels of children down; deeper than the export reader's
    /// ``HealthExportReader/maximumDepth`` is refused, so a hostile `@children` cannot exhaust the stack.
    private static func readArray(_ scanner: inout JSONLineScanner, depth: Int) throws -> [ExportNode] {
        guard depth < HealthExportReader.maximumDepth else {
            throw JSONLineScanner.Failure.invalid("children nested more than \(HealthExportReader.maximumDepth) deep")
        }
        var nodes: [ExportNode] = []
        try scanner.expect(UInt8(ascii: "["))
        if scanner.peek() == UInt8(ascii: "]") { scanner.index += 1; return nodes }
        while true {
            var node = ExportNode(name: "", attributes: [])
            try scanner.readObject { scanner, key in
                switch key {
                case "name": node.name = try scanner.readString()
                case "attributes":
                    try scanner.expect(UInt8(ascii: "["))
                    if scanner.peek() == UInt8(ascii: "]") { scanner.index += 1; return }
                    while true {
                        try scanner.expect(UInt8(ascii: "["))
                        let name = try scanner.readString()
                        try scanner.expect(UInt8(ascii: ","))
                        let value = try scanner.readString()
                        try scanner.expect(UInt8(ascii: "]"))
                        node.attributes.append(Attribute(name: name, value: value))
                        if scanner.peek() == UInt8(ascii: ",") { scanner.index += 1; continue }
                        try scanner.expect(UInt8(ascii: "]"))
                        return
                    }
                case "children": node.children = try readArray(&scanner, depth: depth + 1)
                default: try scanner.skipValue()
                }
            }
            nodes.append(node)
            if scanner.peek() == UInt8(ascii: ",") { scanner.index += 1; continue }
            try scanner.expect(UInt8(ascii: "]"))
            return nodes
        }
    }
}
