/// Reads the track points of a GPX 1.1 document, as an Apple Health export holds a workout's route
/// (`workout-routes/route_<date>.gpx`, named by the workout's `WorkoutRoute` element): `<trkpt lat lon>` with
/// `<ele>`, `<time>` and Apple's `<extensions>` (`speed`, `course`, `hAcc`, `vAcc`). What ``GPXWriter`` writes reads
/// back too.
enum GPXReader {
    /// The locations of every `trkpt` in `text`, in document order; nil when a point has no valid latitude, longitude
    /// or time (the route is then left out rather than kept with gaps nobody sees).
    static func locations(in text: String) -> [WorkoutRoute.Location]? { locations(in: Array(text.utf8)) }

    /// ``locations(in:)-(String)`` of UTF-8 bytes.
    static func locations(in bytes: [UInt8]) -> [WorkoutRoute.Location]? {
        var locations: [WorkoutRoute.Location] = []
        var cursor = 0
        while let open = find("<trkpt", in: bytes, from: cursor, to: bytes.count) {
            let tagStart = open + 6
            guard let tagEnd = find(">", in: bytes, from: tagStart, to: bytes.count) else { return nil }
            let tag = tagStart..<tagEnd
            let body: Range<Int>
            if tagEnd > tagStart, bytes[tagEnd - 1] == UInt8(ascii: "/") {
                body = tagEnd..<tagEnd
                cursor = tagEnd + 1
            } else {
                guard let close = find("</trkpt>", in: bytes, from: tagEnd + 1, to: bytes.count) else { return nil }
                body = (tagEnd + 1)..<close
                cursor = close + 8
            }
            guard let latitude = attribute("lat", in: bytes, tag).flatMap(number),
                  let longitude = attribute("lon", in: bytes, tag).flatMap(number),
                  let time = element("time", in: bytes, body).flatMap({ ISODate.parse($0) }) else { return nil }
            func figure(_ name: String) -> Double? { element(name, in: bytes, body).flatMap(number) }
            let location = WorkoutRoute.Location(
                timestamp: time, latitude: latitude, longitude: longitude, altitude: figure("ele"), speed: figure("speed"),
                course: figure("course"), horizontalAccuracy: figure("hAcc"), verticalAccuracy: figure("vAcc"))
            guard location.hasValidCoordinate else { return nil }
            locations.append(location)
        }
        return locations
    }

    /// Where `needle` first starts in `bytes[from..<to]`.
    private static func find(_ needle: String, in bytes: [UInt8], from: Int, to: Int) -> Int? {
        let wanted = Array(needle.utf8)
        guard !wanted.isEmpty, to - from >= wanted.count else { return nil }
        var index = from
        while index <= to - wanted.count {
            if bytes[index] == wanted[0] {
                var offset = 1
                while offset < wanted.count, bytes[index + offset] == wanted[offset] { offset += 1 }
                if offset == wanted.count { return index }
            }
            index += 1
        }
        return nil
    }

    /// The value of attribute `name` in a start tag (`bytes[tag]`), in either quote.
    private static func attribute(_ name: String, in bytes: [UInt8], _ tag: Range<Int>) -> String? {
        var from = tag.lowerBound
        while let found = find(name + "=", in: bytes, from: from, to: tag.upperBound) {
            let valueStart = found + name.utf8.count + 1
            guard valueStart < tag.upperBound else { return nil }
            let quote = bytes[valueStart]
            guard quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") else { return nil }
            var end = valueStart + 1
            while end < tag.upperBound, bytes[end] != quote { end += 1 }
            guard end < tag.upperBound else { return nil }
            let before = found == tag.lowerBound ? UInt8(ascii: " ") : bytes[found - 1]
            if before == 0x20 || before == 0x09 || before == 0x0A || before == 0x0D {
                return String(decoding: bytes[(valueStart + 1)..<end], as: UTF8.self)
            }
            from = end + 1
        }
        return nil
    }

    /// The text of the first `<name>…</name>` in `bytes[body]`, spaces and line breaks around it dropped.
    private static func element(_ name: String, in bytes: [UInt8], _ body: Range<Int>) -> String? {
        guard let open = find("<" + name + ">", in: bytes, from: body.lowerBound, to: body.upperBound) else { return nil }
        let start = open + name.utf8.count + 2
        guard let close = find("</" + name + ">", in: bytes, from: start, to: body.upperBound) else { return nil }
        var lower = start, upper = close
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }
        while lower < upper, isSpace(bytes[lower]) { lower += 1 }
        while upper > lower, isSpace(bytes[upper - 1]) { upper -= 1 }
        return String(decoding: bytes[lower..<upper], as: UTF8.self)
    }

    private static func number(_ text: String) -> Double? {
        guard let value = Double(text), value.isFinite else { return nil }
        return value
    }
}

/// Where an Apple Health import finds the GPX files its `WorkoutRoute` elements name (`FileReference path=
/// "/workout-routes/route_….gpx"`): the members of the archive, or the folder `export.xml` was read from.
/// Its reading closure captures an archive read with `pread` only (or nothing mutable), hence `@unchecked Sendable`.
struct WorkoutRouteFiles: @unchecked Sendable {
    /// The bytes of the file at `path` (as the export names it), or nil when there is none.
    let read: (String) -> [UInt8]?

    /// The route the file at `path` holds, or nil when there is no such file or it does not read.
    func route(atPath path: String) -> WorkoutRoute? {
        guard let bytes = read(path), String(validating: bytes, as: UTF8.self) != nil,
              let locations = GPXReader.locations(in: bytes), !locations.isEmpty else { return nil }
        return WorkoutRoute(locations: locations)
    }

    /// The largest route file read (a route of a day-long hike at one point a second is about 20 MB).
    static let limit = 128 << 20

    /// The members of `archive`: `/workout-routes/x.gpx` is the member whose name ends in `workout-routes/x.gpx`
    /// (`apple_health_export/workout-routes/x.gpx`). The archive is read with `pread` only, so reading a route while
    /// the export member streams is safe; hence `@unchecked Sendable`.
    static func archive(_ archive: ZipArchive) -> WorkoutRouteFiles {
        WorkoutRouteFiles { path in
            let relative = String(path.drop { $0 == "/" })
            guard !relative.isEmpty,
                  let member = archive.members.first(where: { !$0.isDirectory && ($0.name == relative || $0.name.hasSuffix("/" + relative)) }),
                  member.uncompressedSize < limit, let reader = try? archive.reader(for: member) else { return nil }
            var bytes = [UInt8](repeating: 0, count: member.uncompressedSize)
            guard let count = try? bytes.withUnsafeMutableBytes({ try reader.readFully(into: $0) }), count == bytes.count else { return nil }
            return bytes
        }
    }

    /// The files in `folder` (the folder of `export.xml`): `/workout-routes/x.gpx` is `folder/workout-routes/x.gpx`.
    static func folder(_ folder: String) -> WorkoutRouteFiles {
        WorkoutRouteFiles { path in
            let relative = path.drop { $0 == "/" }
            guard !relative.isEmpty, !relative.split(separator: "/").contains("..") else { return nil }
            // A file of the limit's size or more is left out whole, never read in part.
            guard let bytes = try? POSIXFile.readFile(folder + "/" + relative, limit: limit, followLinks: true),
                  bytes.count < limit else { return nil }
            return bytes
        }
    }
}
