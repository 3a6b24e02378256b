import TextSupport

/// What a workout holds beyond its activity type and dates (see ``Workout``): duration, totals, events,
/// statistics and parts. Stored as the `"workout"` key of the workout's line.
///
/// Line form (keys present only when there is something to say):
/// `"workout":{"duration":2700,"totalEnergyBurned":{"value":420,"unit":"kcal"},"totalDistance":{"value":7.2,"unit":"km"},
/// "events":[{"type":"pause","date":"…","duration":0}],"statistics":[{"type":"HKQuantityTypeIdentifierHeartRate",
/// "start":"…","end":"…","average":142,"minimum":98,"maximum":171,"unit":"count/min"}],"activities":[…],
/// "route":{"locations":[…]},"associated":["<uuid>",…]}` (the route's form: ``WorkoutRoute``; a line without it reads as a
/// workout without one; `associated`: the samples associated with the workout, see
/// ``HealthStore/add(_:to:)-([HealthSample],_)``).
public struct WorkoutDetail: Hashable, Sendable {
    /// Seconds of activity, pauses excluded (HealthKit's `duration`); at most end − start.
    public var duration: TimeInterval
    /// Energy burned over the workout, if known.
    public var totalEnergyBurned: Quantity?
    /// Distance covered, if known.
    public var totalDistance: Quantity?
    /// Pauses, resumes, laps, segments, in time order.
    public var events: [WorkoutEvent]
    /// Figures per quantity type, as an export gives them.
    public var statistics: [WorkoutStatistic]
    /// The parts of a multi-activity workout.
    public var activities: [WorkoutActivity]
    /// The path recorded during the workout, if any (HealthKit's `HKWorkoutRoute` associated with it), as a route made
    /// from its locations: not saved, no uuid or source of its own. A query of ``SeriesType/workoutRoute()`` hands it
    /// out with its own uuid and its workout's source.
    public var route: WorkoutRoute?
    /// The uuids of the samples associated with the workout (HealthKit's `add(_:to:)`), in the order they were added,
    /// each once. Only the store sets them; a query finds the samples with `Query.predicateForObjects(from: workout)`.
    var associatedUUIDs: [UUID] = []

    /// Creates a detail.
    public init(duration: TimeInterval, totalEnergyBurned: Quantity? = nil, totalDistance: Quantity? = nil,
                events: [WorkoutEvent] = [], statistics: [WorkoutStatistic] = [], activities: [WorkoutActivity] = [],
                route: WorkoutRoute? = nil) {
        self.duration = duration
        self.totalEnergyBurned = totalEnergyBurned
        self.totalDistance = totalDistance
        self.events = events
        self.statistics = statistics
        self.activities = activities
        self.route = route
    }

    // MARK: - Line form

    func json(timeZone: ZoneRules) -> String {
        var text = "{\"duration\":" + NumberFormatting.json(duration)
        if let energy = totalEnergyBurned { text += ",\"totalEnergyBurned\":" + WorkoutDetail.json(energy) }
        if let distance = totalDistance { text += ",\"totalDistance\":" + WorkoutDetail.json(distance) }
        text += WorkoutDetail.eventsAndStatistics(events, statistics, timeZone: timeZone)
        if !activities.isEmpty {
            text += ",\"activities\":[" + activities.map { activity in
                var part = "{\"start\":\"" + ISODate.format(activity.start, in: timeZone) + "\""
                if let uuid = activity.uuid { part += ",\"uuid\":" + JSONText.quoted(uuid) }
                if let end = activity.end { part += ",\"end\":\"" + ISODate.format(end, in: timeZone) + "\"" }
                if let duration = activity.duration { part += ",\"duration\":" + NumberFormatting.json(duration) }
                part += WorkoutDetail.eventsAndStatistics(activity.events, activity.statistics, timeZone: timeZone)
                if !activity.metadata.isEmpty {
                    part += ",\"metadata\":{" + activity.metadata.keys.sorted().map {
                        JSONText.quoted($0) + ":" + JSONText.quoted(activity.metadata[$0]!)
                    }.joined(separator: ",") + "}"
                }
                return part + "}"
            }.joined(separator: ",") + "]"
        }
        if let route { text += ",\"route\":" + WorkoutRoute.json(route.locations, timeZone: timeZone) }
        if !associatedUUIDs.isEmpty {
            text += ",\"associated\":[" + associatedUUIDs.map { "\"" + $0.lowercasedText + "\"" }.joined(separator: ",") + "]"
        }
        return text + "}"
    }

    static func json(_ quantity: Quantity) -> String {
        "{\"value\":" + NumberFormatting.json(quantity.value) + ",\"unit\":" + JSONText.quoted(quantity.unit.unitString) + "}"
    }

    private static func eventsAndStatistics(_ events: [WorkoutEvent], _ statistics: [WorkoutStatistic],
                                            timeZone: ZoneRules) -> String {
        var text = ""
        if !events.isEmpty {
            text += ",\"events\":[" + events.map { event in
                "{\"type\":\"\(event.kind.name)\",\"date\":\"\(ISODate.format(event.date, in: timeZone))\",\"duration\":"
                    + NumberFormatting.json(event.duration) + "}"
            }.joined(separator: ",") + "]"
        }
        if !statistics.isEmpty {
            text += ",\"statistics\":[" + statistics.map { statistic in
                var item = "{\"type\":" + JSONText.quoted(statistic.typeIdentifier)
                    + ",\"start\":\"" + ISODate.format(statistic.start, in: timeZone) + "\",\"end\":\""
                    + ISODate.format(statistic.end, in: timeZone) + "\""
                for (name, value) in statistic.figures { item += ",\"\(name)\":" + NumberFormatting.json(value) }
                if let unit = statistic.unit { item += ",\"unit\":" + JSONText.quoted(unit) }
                return item + "}"
            }.joined(separator: ",") + "]"
        }
        return text
    }

    /// Reads the object written by ``json(timeZone:)``.
    init(scanning scanner: inout JSONLineScanner) throws {
        var duration: TimeInterval?
        self.init(duration: 0)
        var detail = self
        try scanner.readObject { scanner, key in
            switch key {
            case "duration": duration = try scanner.readNumber()
            case "totalEnergyBurned": detail.totalEnergyBurned = try WorkoutDetail.quantity(&scanner)
            case "totalDistance": detail.totalDistance = try WorkoutDetail.quantity(&scanner)
            case "events": detail.events = try WorkoutDetail.events(&scanner)
            case "statistics": detail.statistics = try WorkoutDetail.statistics(&scanner)
            case "activities":
                detail.activities = try WorkoutDetail.array(&scanner) { scanner in
                    var start: Date?
                    var part = WorkoutActivity(start: Date(timeIntervalSince1970: 0))
                    try scanner.readObject { scanner, key in
                        switch key {
                        case "uuid": part.uuid = try scanner.readString()
                        case "start": start = try WorkoutDetail.date(&scanner)
                        case "end": part.end = try WorkoutDetail.date(&scanner)
                        case "duration": part.duration = try scanner.readNumber()
                        case "events": part.events = try WorkoutDetail.events(&scanner)
                        case "statistics": part.statistics = try WorkoutDetail.statistics(&scanner)
                        case "metadata":
                            try scanner.readObject { scanner, key in part.metadata[key] = try scanner.readString() }
                        default: try scanner.skipValue()
                        }
                    }
                    guard let start else { throw LineError("a workout activity needs a start") }
                    part.start = start
                    return part
                }
            case "route": detail.route = WorkoutRoute(locations: try WorkoutRoute.locations(scanning: &scanner))
            case "associated":
                detail.associatedUUIDs = try WorkoutDetail.array(&scanner) { scanner in
                    let text = try scanner.readString()
                    guard let uuid = UUID(uuidString: text) else { throw LineError("'\(text)' is not a uuid") }
                    return uuid
                }
            default: try scanner.skipValue()
            }
        }
        guard let duration, duration.isFinite, duration >= 0 else { throw LineError("a workout needs a duration") }
        detail.duration = duration
        self = detail
    }

    private static func array<T>(_ scanner: inout JSONLineScanner, _ element: (inout JSONLineScanner) throws -> T) throws -> [T] {
        var items: [T] = []
        try scanner.expect(UInt8(ascii: "["))
        if scanner.peek() == UInt8(ascii: "]") { scanner.index += 1; return items }
        while true {
            items.append(try element(&scanner))
            if scanner.peek() == UInt8(ascii: ",") { scanner.index += 1; continue }
            try scanner.expect(UInt8(ascii: "]"))
            return items
        }
    }

    private static func date(_ scanner: inout JSONLineScanner) throws -> Date {
        let text = try scanner.readString()
        guard let date = ISODate.parse(text) else { throw LineError("'\(text)' is not a date with an offset") }
        return date
    }

    private static func quantity(_ scanner: inout JSONLineScanner) throws -> Quantity {
        var value: Double?, unit: String?
        try scanner.readObject { scanner, key in
            switch key {
            case "value": value = try scanner.readNumber()
            case "unit": unit = try scanner.readString()
            default: try scanner.skipValue()
            }
        }
        guard let value, let unit, let parsed = try? HealthUnit(parsing: unit) else {
            throw LineError("a workout total needs a value and a known unit")
        }
        return Quantity(value, parsed)
    }

    private static func events(_ scanner: inout JSONLineScanner) throws -> [WorkoutEvent] {
        try array(&scanner) { scanner in
            var kind: WorkoutEvent.Kind?, date: Date?, duration: TimeInterval = 0
            try scanner.readObject { scanner, key in
                switch key {
                case "type":
                    let name = try scanner.readString()
                    guard let known = WorkoutEvent.Kind(name: name) else { throw LineError("unknown workout event '\(name)'") }
                    kind = known
                case "date": date = try WorkoutDetail.date(&scanner)
                case "duration": duration = try scanner.readNumber()
                default: try scanner.skipValue()
                }
            }
            guard let kind, let date else { throw LineError("a workout event needs a type and a date") }
            return WorkoutEvent(kind: kind, date: date, duration: duration)
        }
    }

    private static func statistics(_ scanner: inout JSONLineScanner) throws -> [WorkoutStatistic] {
        try array(&scanner) { scanner in
            var type: String?, start: Date?, end: Date?
            var statistic = WorkoutStatistic(typeIdentifier: "", start: Date(timeIntervalSince1970: 0), end: Date(timeIntervalSince1970: 0))
            try scanner.readObject { scanner, key in
                switch key {
                case "type": type = try scanner.readString()
                case "start": start = try WorkoutDetail.date(&scanner)
                case "end": end = try WorkoutDetail.date(&scanner)
                case "sum": statistic.sum = try scanner.readNumber()
                case "average": statistic.average = try scanner.readNumber()
                case "minimum": statistic.minimum = try scanner.readNumber()
                case "maximum": statistic.maximum = try scanner.readNumber()
                case "unit": statistic.unit = try scanner.readString()
                default: try scanner.skipValue()
                }
            }
            guard let type, let start, let end else { throw LineError("a workout statistic needs a type, start and end") }
            statistic.typeIdentifier = type
            statistic.start = start
            statistic.end = end
            return statistic
        }
    }
}
