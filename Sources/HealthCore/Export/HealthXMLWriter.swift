import TextSupport

/// `healthxml`: XML shaped like the Health app's `export.xml`, so that ``HealthImporter`` (and tools written for
/// Apple's exports) read it back.
///
/// Samples become `Record` elements (with `MetadataEntry` children, a number marked `hkctlType="number"`: see
/// ``MetadataEntryForm``); samples imported from other elements
/// (`Workout`, `Correlation`, `ActivitySummary`, ...) become those elements again, with their attributes and
/// children as they were read. A state of mind is a `Record` in ``StateOfMindExportForm``. Dates are written as `2024-03-10 01:59:00 -0800` in the export's zone, with
/// milliseconds when a sample has them; devices as HealthKit's description with a zero address.
struct HealthXMLWriter: SampleWriter {
    let catalogue: SampleTypeCatalogue
    let timeZone: ZoneRules
    let exportDate: Date
    let locale: String
    let characteristics: Characteristics?
    private var categoryNames: [String: [Int: String]] = [:]
    /// Each stored device's description as the export spells it (a store holds a few devices, read per sample).
    private var deviceTexts: [String: String] = [:]

    init(catalogue: SampleTypeCatalogue, timeZone: ZoneRules, exportDate: Date, locale: String, characteristics: Characteristics?) {
        self.catalogue = catalogue
        self.timeZone = timeZone
        self.exportDate = exportDate
        self.locale = locale
        self.characteristics = characteristics
    }

    static let prolog = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE HealthData [
        <!-- HealthKit Export Version: 14 (written by hkctl) -->
        <!ELEMENT HealthData (ExportDate,Me,(Record|Correlation|Workout|ActivitySummary|ClinicalRecord|Audiogram|VisionPrescription)*)>
        <!ATTLIST HealthData locale CDATA #REQUIRED>
        <!ELEMENT ExportDate EMPTY>
        <!ATTLIST ExportDate value CDATA #REQUIRED>
        <!ELEMENT Me EMPTY>
        <!ELEMENT Record ((MetadataEntry|HeartRateVariabilityMetadataList)*)>
        <!ATTLIST Record
          type          CDATA #REQUIRED
          unit          CDATA #IMPLIED
          value         CDATA #IMPLIED
          sourceName    CDATA #REQUIRED
          sourceVersion CDATA #IMPLIED
          device        CDATA #IMPLIED
          creationDate  CDATA #IMPLIED
          startDate     CDATA #REQUIRED
          endDate       CDATA #REQUIRED
        >
        <!ELEMENT MetadataEntry EMPTY>
        <!ATTLIST MetadataEntry key CDATA #REQUIRED value CDATA #REQUIRED hkctlType (number) #IMPLIED>
        ]>

        """

    mutating func begin(to output: any ExportDestination) throws {
        try output.write(HealthXMLWriter.prolog)
        try output.write("<HealthData locale=\"\(XMLText.escape(locale))\">\n")
        try output.write(" <ExportDate value=\"\(date(exportDate))\"/>\n")
        let me = characteristics ?? Characteristics()
        let generic = me.generic ?? [:]
        let known: [(String, String?, String)] = [
            ("HKCharacteristicTypeIdentifierDateOfBirth", me.dateOfBirth, ""),
            ("HKCharacteristicTypeIdentifierBiologicalSex", me.biologicalSex?.exportName, "HKBiologicalSexNotSet"),
            ("HKCharacteristicTypeIdentifierBloodType", me.bloodType?.exportName, "HKBloodTypeNotSet"),
            ("HKCharacteristicTypeIdentifierFitzpatrickSkinType", me.skinType?.exportName, "HKFitzpatrickSkinTypeNotSet"),
        ]
        // A value this version could not read goes back as written, and so do kinds it does not know.
        var attributes = known.map { ($0.0, $0.1 ?? generic[$0.0] ?? $0.2) }
        let knownNames = Set(known.map(\.0))
        for (name, value) in generic.sorted(by: { $0.key < $1.key })
        where !knownNames.contains(name) && HealthXMLWriter.attributeName("@" + name) != nil {
            attributes.append((name, value))
        }
        try output.write(" <Me" + attributes.map { " \($0.0)=\"\(XMLText.escape($0.1))\"" }.joined() + "/>\n")
    }

    /// The attribute name a record's `@name` metadata key stands for, when it is a valid XML name that is not one of
    /// the attributes written already.
    static func attributeName(_ key: String) -> String? {
        let name = String(key.dropFirst())
        let written: Set<String> = ["type", "sourceName", "sourceVersion", "device", "unit", "creationDate", "startDate", "endDate",
                                    "value", "element", "children"]
        guard let first = name.unicodeScalars.first, !written.contains(name),
              first == "_" || first.properties.isAlphabetic,
              name.unicodeScalars.allSatisfy({ $0 == "_" || $0 == "-" || $0 == "." || $0.properties.isAlphabetic || ("0"..."9").contains($0) })
        else { return nil }
        return name
    }

    mutating func end(to output: any ExportDestination) throws {
        try output.write("</HealthData>\n")
    }

    mutating func write(_ sample: Sample, to output: any ExportDestination) throws {
        let sample = StateOfMindExportForm.generic(WorkoutExportForm.generic(sample))
        var metadata = sample.metadata
        var children: [ExportNode] = []
        if case let .string(json)? = metadata.removeValue(forKey: "@children"), let nodes = try? ExportNode.nodes(fromJSON: json) {
            children = nodes
        }
        let element: String
        var attributes: [(String, String)] = []
        if case let .string(name)? = metadata.removeValue(forKey: "@element") {
            element = name
            let synthetic = ExportRecordMapper.elementTypeIdentifiers[name] == sample.typeIdentifier
                || sample.typeIdentifier.hasPrefix("HKExportElement")
            if !synthetic { attributes.append(("type", sample.typeIdentifier)) }
            // The element's attributes; an `@` key holding a number stays a metadata entry, which keeps its type.
            let own = metadata.keys.filter { $0.hasPrefix("@") && metadata[$0]!.isString }.sorted()
            if ExportRecordMapper.sampleLikeElements.contains(name) {
                attributes.append(("sourceName", sample.source))
                if let version = sample.sourceVersion { attributes.append(("sourceVersion", version)) }
                if let device = sample.device { attributes.append(("device", deviceText(device))) }
                attributes.append(("creationDate", date(sample.created)))
                attributes.append(("startDate", date(sample.start)))
                attributes.append(("endDate", date(sample.end)))
            } else if !own.contains("@sourceName"), sample.source != ExportRecordMapper.defaultSource {
                attributes.append(("sourceName", sample.source))
            }
            for key in own {
                attributes.append((String(key.dropFirst()), metadata.removeValue(forKey: key)!.text))
            }
        } else {
            element = "Record"
            attributes.append(("type", sample.typeIdentifier))
            attributes.append(("sourceName", sample.source))
            if let version = sample.sourceVersion { attributes.append(("sourceVersion", version)) }
            if let device = sample.device { attributes.append(("device", deviceText(device))) }
            var value: String?
            switch sample.value {
            case let .quantity(quantity):
                attributes.append(("unit", quantity.unit.unitString))
                value = NumberFormatting.json(quantity.value)
            case let .category(raw):
                value = categoryName(raw, type: sample.typeIdentifier)
            case let .generic(text, unit):
                if let unit { attributes.append(("unit", unit)) }
                value = text.isEmpty ? nil : text
            }
            attributes.append(("creationDate", date(sample.created)))
            attributes.append(("startDate", date(sample.start)))
            attributes.append(("endDate", date(sample.end)))
            if let value { attributes.append(("value", value)) }
            // Attributes an export's record had beyond these (`recordCount` of iOS 8 exports) go back as written;
            // other `@` keys (and those holding numbers) stay metadata entries.
            for key in metadata.keys.filter({ $0.hasPrefix("@") && metadata[$0]!.isString }).sorted() {
                guard let name = HealthXMLWriter.attributeName(key) else { continue }
                attributes.append((name, metadata.removeValue(forKey: key)!.text))
            }
        }
        for key in metadata.keys.sorted() {
            children.insert(MetadataEntryForm.node(key: key, value: metadata[key]!),
                            at: children.firstIndex { $0.name != MetadataEntryForm.element } ?? children.count)
        }
        var line = " <" + element
        for (name, value) in attributes { line += " " + name + "=\"" + XMLText.escape(value) + "\"" }
        if children.isEmpty {
            try output.write(line + "/>\n")
            return
        }
        try output.write(line + ">\n")
        for child in children { try output.write(xml(child, indent: "  ")) }
        try output.write(" </" + element + ">\n")
    }

    private func xml(_ node: ExportNode, indent: String) -> String {
        var text = indent + "<" + node.name
        for attribute in node.attributes { text += " " + attribute.name + "=\"" + XMLText.escape(attribute.value) + "\"" }
        if node.children.isEmpty { return text + "/>\n" }
        text += ">\n"
        for child in node.children { text += xml(child, indent: indent + " ") }
        return text + indent + "</" + node.name + ">\n"
    }

    private mutating func deviceText(_ device: String) -> String {
        if let known = deviceTexts[device] { return known }
        let text = DeviceDescription(normalized: device).exportText
        deviceTexts[device] = text
        return text
    }

    private func date(_ date: Date) -> String {
        ExportDateParser.format(date, offsetSeconds: timeZone.secondsFromGMT(for: date))
    }

    private mutating func categoryName(_ raw: Int, type identifier: String) -> String {
        if let name = categoryNames[identifier]?[raw] { return name }
        let name = catalogue.type(identifier: identifier)?.categoryValue(raw: raw)?.exportNames.first ?? String(raw)
        categoryNames[identifier, default: [:]][raw] = name
        return name
    }
}

private extension MetadataValue {
    /// Whether it is text, which an attribute holds without losing its type.
    var isString: Bool {
        if case .string = self { return true }
        return false
    }
}
