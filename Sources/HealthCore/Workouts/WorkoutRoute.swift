import TextSupport

/// The path of a workout, HealthKit's `HKWorkoutRoute`: a ``HealthSample`` (HealthKit's `HKSeriesSample`) holding the
/// locations recorded during it, in time order, each with the fields of a Core Location `CLLocation` (``Location``).
///
/// A route is stored with its workout (``WorkoutDetail/route``), so it is kept, deleted and undone with it. Imports
/// fill it from Health Auto Export's `route` arrays and from the GPX files an Apple Health export names. As in
/// HealthKit, a query of ``SeriesType/workoutRoute()`` with `Query.predicateForObjects(from: workout)` finds a
/// workout's route, and its results are `WorkoutRoute`s (`samples as? [WorkoutRoute]`); ``WorkoutRouteQuery`` hands
/// over the locations, which ``locations`` also gives at once. A route from a query has its own uuid (derived from its
/// workout's), its workout's source and device, and spans its first to its last location.
public final class WorkoutRoute: HealthSample, @unchecked Sendable {
    /// One recorded location, with Core Location's names and units.
    public struct Location: Hashable, Sendable {
        /// When the location was recorded.
        public var timestamp: Date
        /// Degrees north of the equator, −90...90 (WGS 84).
        public var latitude: Double
        /// Degrees east of Greenwich, −180...180 (WGS 84).
        public var longitude: Double
        /// Metres above sea level, if known.
        public var altitude: Double?
        /// Metres per second, if known.
        public var speed: Double?
        /// Degrees clockwise from true north, 0...360, if known.
        public var course: Double?
        /// The radius of uncertainty of latitude and longitude in metres, if known.
        public var horizontalAccuracy: Double?
        /// The uncertainty of the altitude in metres, if known.
        public var verticalAccuracy: Double?
        /// The uncertainty of the speed in metres per second, if known.
        public var speedAccuracy: Double?
        /// The uncertainty of the course in degrees, if known.
        public var courseAccuracy: Double?

        /// Creates a location; the timestamp is kept to the millisecond, as samples' dates are.
        public init(timestamp: Date, latitude: Double, longitude: Double, altitude: Double? = nil, speed: Double? = nil,
                    course: Double? = nil, horizontalAccuracy: Double? = nil, verticalAccuracy: Double? = nil,
                    speedAccuracy: Double? = nil, courseAccuracy: Double? = nil) {
            self.timestamp = Sample.millisecondPrecision(timestamp)
            self.latitude = latitude
            self.longitude = longitude
            self.altitude = altitude
            self.speed = speed
            self.course = course
            self.horizontalAccuracy = horizontalAccuracy
            self.verticalAccuracy = verticalAccuracy
            self.speedAccuracy = speedAccuracy
            self.courseAccuracy = courseAccuracy
        }

        /// Whether latitude and longitude are finite and within their ranges.
        public var hasValidCoordinate: Bool {
            latitude.isFinite && longitude.isFinite && (-90...90).contains(latitude) && (-180...180).contains(longitude)
        }

        /// The optional figures by their names, in a stable order (the line form's keys).
        var figures: [(name: String, value: Double?)] {
            [("altitude", altitude), ("speed", speed), ("course", course), ("horizontalAccuracy", horizontalAccuracy),
             ("verticalAccuracy", verticalAccuracy), ("speedAccuracy", speedAccuracy), ("courseAccuracy", courseAccuracy)]
        }
    }

    /// The route a stored record holds (a query's answer), or nil when the record is not a route.
    public convenience init?(_ sample: Sample) {
        guard sample.typeIdentifier == WorkoutRoute.typeIdentifier, case .route? = sample.detail else { return nil }
        self.init(record: sample)
    }

    /// Creates a route, not saved (no uuid or source of its own: it takes its workout's when a query hands it out);
    /// the locations are put in time order.
    public convenience init(locations: [Location]) {
        let sorted = locations.enumerated().sorted {
            $0.element.timestamp != $1.element.timestamp ? $0.element.timestamp < $1.element.timestamp : $0.offset < $1.offset
        }.map(\.element)
        let start = sorted.first?.timestamp ?? Date(timeIntervalSince1970: 0)
        self.init(record: Sample(uuid: RecordIdentity.placeholder, typeIdentifier: WorkoutRoute.typeIdentifier, start: start,
                                 end: sorted.last?.timestamp ?? start, value: .category(0), source: Sample.unsavedSource,
                                 created: start, detail: .route(sorted)))
    }

    /// The locations, in time order (HealthKit hands them over only through `HKWorkoutRouteQuery`; both work here).
    public var locations: [Location] {
        if case let .route(locations)? = sample.detail { return locations }
        return []
    }

    /// How many locations the route holds, as `HKWorkoutRoute.count`.
    public var count: Int { locations.count }

    // MARK: - Line form

    /// `{"locations":[{"timestamp":"…","latitude":…,"longitude":…,"altitude":…,…}]}` (absent figures left out).
    static func json(_ locations: [Location], timeZone: ZoneRules) -> String {
        "{\"locations\":[" + locations.map { location in
            var item = "{\"timestamp\":\"" + ISODate.format(location.timestamp, in: timeZone) + "\",\"latitude\":"
                + NumberFormatting.json(location.latitude) + ",\"longitude\":" + NumberFormatting.json(location.longitude)
            for (name, value) in location.figures {
                if let value, value.isFinite { item += ",\"" + name + "\":" + NumberFormatting.json(value) }
            }
            return item + "}"
        }.joined(separator: ",") + "]}"
    }

    /// Reads the object written by ``json(_:timeZone:)``; unknown keys are skipped.
    static func locations(scanning scanner: inout JSONLineScanner) throws -> [Location] {
        var locations: [Location] = []
        try scanner.readObject { scanner, key in
            guard key == "locations" else { return try scanner.skipValue() }
            try scanner.expect(UInt8(ascii: "["))
            if scanner.peek() == UInt8(ascii: "]") { scanner.index += 1; return }
            while true {
                locations.append(try WorkoutRoute.location(&scanner))
                if scanner.peek() == UInt8(ascii: ",") { scanner.index += 1; continue }
                try scanner.expect(UInt8(ascii: "]"))
                return
            }
        }
        return locations
    }

    private static func location(_ scanner: inout JSONLineScanner) throws -> Location {
        var timestamp: Date?, latitude: Double?, longitude: Double?
        var figures: [String: Double] = [:]
        try scanner.readObject { scanner, key in
            switch key {
            case "timestamp":
                let text = try scanner.readString()
                guard let date = ISODate.parse(text) else { throw LineError("'\(text)' is not a date with an offset") }
                timestamp = date
            case "latitude": latitude = try scanner.readNumber()
            case "longitude": longitude = try scanner.readNumber()
            case "altitude", "speed", "course", "horizontalAccuracy", "verticalAccuracy", "speedAccuracy", "courseAccuracy":
                figures[key] = try scanner.readNumber()
            default: try scanner.skipValue()
            }
        }
        guard let timestamp, let latitude, let longitude else {
            throw LineError("a route location needs a timestamp, a latitude and a longitude")
        }
        return Location(timestamp: timestamp, latitude: latitude, longitude: longitude, altitude: figures["altitude"],
                        speed: figures["speed"], course: figures["course"], horizontalAccuracy: figures["horizontalAccuracy"],
                        verticalAccuracy: figures["verticalAccuracy"], speedAccuracy: figures["speedAccuracy"],
                        courseAccuracy: figures["courseAccuracy"])
    }
}
