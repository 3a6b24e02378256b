import TextSupport

/// The form an Apple Health export gives a correlation: a `Correlation` element (`@element` metadata) holding its
/// member `Record`s (`@children`). An imported correlation keeps that form; one saved in code gets it from its
/// members when it is exported, and its identity (``RecordIdentity``) is always that of this form.
enum CorrelationExportForm {
    static let element = "Correlation"

    /// `sample` as the export writes it; `members` are its member samples (for one saved in code).
    static func generic(_ sample: Sample, members: [Sample], timeZone: ZoneRules) -> Sample {
        guard sample.detail?.correlation != nil else { return sample }
        var generic = sample
        generic.detail = nil
        generic.value = .generic(value: "", unit: nil)
        if generic.metadata["@element"] == nil {
            generic.metadata["@element"] = .string(element)
            if !members.isEmpty { generic.metadata["@children"] = .string(ExportNode.json(members.map { node($0, timeZone: timeZone) })) }
        }
        return generic
    }

    /// A member as a `Record` node.
    private static func node(_ member: Sample, timeZone: ZoneRules) -> ExportNode {
        func date(_ date: Date) -> String { ExportDateParser.format(date, offsetSeconds: timeZone.secondsFromGMT(for: date)) }
        var attributes = [("type", member.typeIdentifier), ("sourceName", member.source)]
        if let version = member.sourceVersion { attributes.append(("sourceVersion", version)) }
        if let device = member.device { attributes.append(("device", DeviceDescription(normalized: device).exportText)) }
        if let quantity = member.value.quantity { attributes.append(("unit", quantity.unit.unitString)) }
        attributes += [("creationDate", date(member.created)), ("startDate", date(member.start)), ("endDate", date(member.end))]
        if let quantity = member.value.quantity { attributes.append(("value", NumberFormatting.json(quantity.value))) }
        let metadata = member.metadata.keys.filter { !$0.hasPrefix("@") }.sorted().map { key in
            MetadataEntryForm.node(key: key, value: member.metadata[key]!)
        }
        return ExportNode(name: "Record", attributes: attributes.map { ExportNode.Attribute(name: $0.0, value: $0.1) },
                          children: metadata)
    }
}
