/// The payload's arrays other than `metrics`, `workouts` (``HAEWorkouts``) and `stateOfMind` (``HAEStateOfMind``):
/// `medications`, `symptoms`, `cycleTracking`, `ecg`, `heartRateNotifications`, and any new one. They are not typed
/// yet, so each element is kept as
/// an untyped sample of type `HealthAutoExport_<array>` whose value is the element's JSON (compact, keys in byte
/// order, so that a re-send with another key order or spacing is the same element), dated by its
/// `start` (or `date`, `startDate`) and `end`. Its sync identifier is `HAE|<array>|<start>|<id>` (`id` when the
/// element has one, else its name or the start alone), so a re-send replaces it rather than adding it again.
enum HAEOtherArrays {
    static func candidate(_ item: HAEOtherItem, builder: HAESampleBuilder) -> HAEBuilt {
        let type = HAESampleBuilder.untypedPrefix + item.array
        guard let (start, _) = item.start else {
            return .refused(type: type, line: item.line, reason: "the element of '\(item.array)' has no 'start' date, so it cannot be placed in time")
        }
        let end = item.end.map { max($0.date, start) } ?? start
        var identifier = HAESampleBuilder.syncPrefix + item.array + "|" + ISODate.format(start, in: .gmt)
        if let id = HAEOtherArrays.field("id", in: item.json) ?? HAEOtherArrays.field("name", in: item.json) { identifier += "|" + id }
        var metadata: [String: MetadataValue] = [
            MetadataKeySyncIdentifier: .string(identifier), HAESampleBuilder.aggregationKey: .string("none"),
        ]
        if let through = builder.receivedThrough { metadata[HAESampleBuilder.receivedThroughKey] = .string(through) }
        let json = (try? HAEJSONTree.parse(item.json))?.json ?? item.json
        let sample = Sample(typeIdentifier: type, start: start, end: end, value: .generic(value: json, unit: nil),
                            source: builder.defaultSource, created: builder.created, metadata: metadata)
        if let problem = TextRules.problem(in: sample) { return .refused(type: type, line: item.line, reason: problem) }
        return .candidate(HAECandidate(sample: sample, generic: true, syncIdentifier: identifier, line: item.line, metric: item.array))
    }

    /// The string value of a top-level `key` of the JSON object `json`, if it is a string.
    static func field(_ key: String, in json: String) -> String? {
        var bytes = Array(json.utf8)
        return bytes.withUnsafeMutableBufferPointer { buffer -> String? in
            var cursor = JSONCursor(UnsafeBufferPointer(buffer))
            var found: String?
            try? cursor.readObject { cursor, name in
                if found == nil, String(decoding: name, as: UTF8.self) == key, cursor.peek() == UInt8(ascii: "\"") {
                    found = try cursor.readString()
                } else {
                    try cursor.skipValue()
                }
            }
            return found
        }
    }
}
