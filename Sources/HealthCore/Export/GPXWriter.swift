import TextSupport

/// Writes a workout's route (``WorkoutDetail/route``) as a GPX 1.1 document, the format map and training tools read
/// (<https://www.topografix.com/GPX/1/1/>): one track named after the workout's activity, one segment, one `trkpt`
/// per location with its elevation (`ele`, metres) and time (UTC, `Z`). Speed, course and accuracies have no GPX 1.1
/// element and are left out. Text is XML-escaped.
public enum GPXWriter: Sendable {
    /// The GPX document of `workout`'s route.
    ///
    /// - Throws: ``GPXError/noRoute(_:)`` when the workout has no route or an empty one.
    public static func document(for workout: Workout) throws -> String {
        guard let route = workout.detail.route, !route.locations.isEmpty else {
            throw GPXError.noRoute(workout.uuid.lowercasedText)
        }
        var text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        text += "<gpx version=\"1.1\" creator=\"hkctl\" xmlns=\"http://www.topografix.com/GPX/1/1\">\n"
        text += "  <metadata>\n    <time>" + utc(workout.start) + "</time>\n  </metadata>\n"
        text += "  <trk>\n    <name>" + escape(trackName(workout)) + "</name>\n"
        text += "    <type>" + escape(workout.activity.name) + "</type>\n    <trkseg>\n"
        for location in route.locations {
            text += "      <trkpt lat=\"" + decimal(location.latitude) + "\" lon=\"" + decimal(location.longitude) + "\">"
            if let altitude = location.altitude, altitude.isFinite { text += "<ele>" + decimal(altitude) + "</ele>" }
            text += "<time>" + utc(location.timestamp) + "</time></trkpt>\n"
        }
        return text + "    </trkseg>\n  </trk>\n</gpx>\n"
    }

    /// The track's name: the activity's name as the importer read it (`HAEWorkoutName`, `Outdoor Run`) when there
    /// is one, else the activity type's name (`running`).
    static func trackName(_ workout: Workout) -> String {
        if case let .string(name)? = workout.sample.metadata["HAEWorkoutName"], !name.isEmpty { return name }
        return workout.activity.name
    }

    /// `2023-01-22T00:34:52Z` (milliseconds when present).
    static func utc(_ date: Date) -> String {
        var text = ISODate.format(date, offsetSeconds: 0)
        if text.hasSuffix("+00:00") { text.removeLast(6) }
        return text + "Z"
    }

    /// A number as an XML Schema decimal: no exponent, shortest form otherwise.
    static func decimal(_ value: Double) -> String {
        let text = NumberFormatting.json(value)
        guard text.contains("e") || text.contains("E") else { return text }
        let scaled = Int64((abs(value) * 1_000_000_000).rounded())
        if scaled == 0 { return "0" }
        var fraction = String(scaled % 1_000_000_000)
        fraction = String(repeating: "0", count: 9 - fraction.count) + fraction
        while fraction.hasSuffix("0") { fraction.removeLast() }
        return (value < 0 ? "-" : "") + String(scaled / 1_000_000_000) + (fraction.isEmpty ? "" : "." + fraction)
    }

    /// `&`, `<`, `>`, `"`, `'` as entities, byte by byte: as characters, a `<` that a combining mark follows is one
    /// character with it, which compared unequal to `<` and was written bare (text no XML reader accepts).
    static func escape(_ text: String) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count)
        func append(_ entity: StaticString) { entity.withUTF8Buffer { out.append(contentsOf: $0) } }
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "&"): append("&amp;")
            case UInt8(ascii: "<"): append("&lt;")
            case UInt8(ascii: ">"): append("&gt;")
            case UInt8(ascii: "\""): append("&quot;")
            case UInt8(ascii: "'"): append("&apos;")
            default: out.append(byte)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
