import TextSupport

/// Turns the elements of a Health Auto Export payload's `workouts` array, version 1 (legacy) or 2, into typed
/// workouts (see docs/IMPORT.md, "Health Auto Export workouts").
///
/// - Activity from `name` (``activity(named:)``); the name is kept as ``nameKey``; a name with no HealthKit
///   activity becomes `.other`.
/// - Start and end; duration from v2 `duration` (at most end − start), else end − start.
/// - `totalEnergyBurned` from `activeEnergyBurned` (v2) or `activeEnergy` (v1, a total), as HealthKit's workout total
///   is the active energy; `totalDistance` from `distance`. Units as written per field.
/// - Statistics: heart rate (average, minimum, maximum over the workout) from HAE's own summary
///   (`avgHeartRate`, `maxHeartRate`, v2 `heartRate`) where given, else from the `heartRateData` series; sums of
///   active energy and steps (the v2 series or the v1 totals), flights climbed, and basal energy when both energy
///   totals are given (total − active). The series themselves are not stored as samples: HAE sends the same
///   readings in its `heart_rate`, `active_energy` and `step_count` metrics, so storing them twice would double them.
/// - Metadata: `HKIndoorWorkout` from `isIndoor` or v2 `location`, `HKSwimmingLocationType` for a pool or open
///   water, `HKElevationAscended`, `HKWeatherTemperature`, `HKWeatherHumidity`, `HKAverageMETs`, `HKExternalUUID`
///   (v2 `id`); every other field as `HAE:<key>` (`"4.43 km/hr"` for a `{"qty", "units"}`, JSON text for the rest).
/// - The route (v1 `lat`/`lon`/`altitude`/`timestamp`; v2 with course, speed and accuracies) as ``WorkoutRoute``.
/// - Identity: the sync identifier `HAE|workout|<id>` for v2, `HAE|workout|<start, UTC>|<name>` for v1, with the
///   source, so a re-send is unchanged or replaces the stored workout.
enum HAEWorkouts {
    /// The payload array they come in.
    static let array = "workouts"
    /// The metadata key holding HAE's activity name as written.
    static let nameKey = "HAEWorkoutName"

    /// Fields read into the workout's typed parts (the rest, and totals whose unit is not an energy or a length, are
    /// kept as `HAE:<key>` metadata).
    private static let understood: Set<String> = [
        "id", "name", "start", "end", "duration", "isIndoor", "location", "elevation", "elevationUp", "heartRateData", "avgHeartRate", "maxHeartRate", "heartRate",
        "stepCount", "flightsClimbed", "route", "source", "temperature", "humidity", "intensity",
    ]

    static func candidate(_ item: HAEOtherItem, builder: HAESampleBuilder) -> HAEBuilt {
        let type = Workout.typeIdentifier
        func refused(_ reason: String) -> HAEBuilt { .refused(type: type, line: item.line, reason: reason) }
        guard let tree = try? HAEJSONTree.parse(item.json), case .object = tree else {
            return refused("an element of 'workouts' must be an object with 'name', 'start' and 'end'")
        }
        guard let start = tree["start"]?.date else {
            return refused("the workout has no 'start' date like 2023-01-22 11:34:52 +1100")
        }
        if let duration = tree["duration"], duration.number == nil, duration.json != "null" {
            return refused("the workout's 'duration' is \(duration.json), not a number of seconds")
        }
        let declared = tree["duration"]?.number
        guard let end = tree["end"]?.date ?? declared.map({ start.addingTimeInterval($0) }) else {
            return refused("the workout starting \(ISODate.format(start, in: .gmt)) has no 'end' date (nor 'duration')")
        }
        guard end >= start else {
            return refused("the workout ends (\(ISODate.format(end, in: .gmt))) before it starts (\(ISODate.format(start, in: .gmt)))")
        }
        let name = tree["name"]?.text ?? ""
        let activity = activity(named: name)
        let span = end.timeIntervalSince(start)
        var detail = WorkoutDetail(duration: min(max(declared ?? span, 0), span))
        var metadata: [String: MetadataValue] = [nameKey: .string(name), HAESampleBuilder.aggregationKey: .string("none")]
        var consumed = Set<String>()

        // Totals.
        if let (qty, units) = (tree["activeEnergyBurned"] ?? tree["activeEnergy"])?.quantity,
           let quantity = quantity(qty, units, like: Workout.kilocalorie) {
            detail.totalEnergyBurned = quantity
            consumed.insert(tree["activeEnergyBurned"] != nil ? "activeEnergyBurned" : "activeEnergy")
        }
        if let (qty, units) = tree["distance"]?.quantity, let quantity = quantity(qty, units, like: Workout.meter) {
            detail.totalDistance = quantity
            consumed.insert("distance")
        }

        // Statistics.
        detail.statistics = statistics(tree, start: start, end: end, active: detail.totalEnergyBurned)

        // Metadata with HealthKit keys.
        let location = tree["location"]?.text
        if let indoor = tree["isIndoor"]?.bool {
            metadata["HKIndoorWorkout"] = .number(indoor ? 1 : 0)
        } else if let location {
            metadata["HKIndoorWorkout"] = .number(location == "Indoor" || location == "Pool" ? 1 : 0)
        }
        if location == "Pool" { metadata["HKSwimmingLocationType"] = .number(1) }
        if location == "Open Water" { metadata["HKSwimmingLocationType"] = .number(2) }
        if let elevation = tree["elevation"], let ascent = elevation["ascent"]?.number {
            metadata["HKElevationAscended"] = .string(NumberFormatting.json(ascent) + " " + (elevation["units"]?.text ?? "m"))
            if let descent = elevation["descent"]?.number {
                metadata["HAE:elevationDescended"] = .string(NumberFormatting.json(descent) + " " + (elevation["units"]?.text ?? "m"))
            }
        } else if let (qty, units) = tree["elevationUp"]?.quantity {
            metadata["HKElevationAscended"] = .string(NumberFormatting.json(qty) + " " + (units.isEmpty ? "m" : units))
        }
        for (field, key) in [("temperature", "HKWeatherTemperature"), ("humidity", "HKWeatherHumidity"), ("intensity", "HKAverageMETs")] {
            guard let value = tree[field] else { continue }
            if let (qty, units) = value.quantity {
                metadata[key] = .string(NumberFormatting.json(qty) + " " + (units == "MET" ? "kcal/hr·kg" : units))
            } else {
                metadata["HAE:" + field] = .string(value.json)
            }
        }
        if let id = tree["id"]?.text { metadata["HKExternalUUID"] = .string(id) }
        if case let .object(fields) = tree {
            for (key, value) in fields where !understood.contains(key) && !consumed.contains(key) && !(key == "activeEnergy" && value.items != nil) {
                switch value {
                case .scalar(.null): continue
                case let .scalar(.number(number)): metadata["HAE:" + key] = .number(number)
                case let .scalar(.string(text)): metadata["HAE:" + key] = .string(text)
                default:
                    if let (qty, units) = value.quantity {
                        metadata["HAE:" + key] = .string(NumberFormatting.json(qty) + (units.isEmpty ? "" : " " + units))
                    } else {
                        metadata["HAE:" + key] = .string(value.json)
                    }
                }
            }
        }

        // Route.
        if let points = tree["route"]?.items, !points.isEmpty {
            var locations: [WorkoutRoute.Location] = []
            for (index, point) in points.enumerated() {
                guard let location = routeLocation(point) else {
                    return refused("point \(index + 1) of the workout's route has no 'timestamp' or no valid latitude and longitude "
                                   + "(v1: lat, lon; v2: latitude, longitude)")
                }
                locations.append(location)
            }
            detail.route = WorkoutRoute(locations: locations)
        }

        // Identity.
        var identifier = HAESampleBuilder.syncPrefix + "workout|"
        if let id = tree["id"]?.text, !id.isEmpty {
            identifier += id
        } else {
            identifier += ISODate.format(start, in: .gmt) + "|" + name
        }
        metadata[MetadataKeySyncIdentifier] = .string(identifier)
        if let through = builder.receivedThrough { metadata[HAESampleBuilder.receivedThroughKey] = .string(through) }
        let source = tree["source"]?.text.flatMap { $0.isEmpty ? nil : $0 } ?? builder.defaultSource
        let workout = Workout(activity: activity, start: start, end: end, detail: detail, source: source, created: builder.created,
                              metadata: metadata)
        do {
            try workout.validated()
        } catch {
            return refused("the workout '\(name)' at \(ISODate.format(start, in: .gmt)): \(error)")
        }
        let sample = workout.sample
        if let problem = TextRules.problem(in: sample) { return refused(problem) }
        return .candidate(HAECandidate(sample: sample, generic: false, syncIdentifier: identifier, line: item.line, metric: array))
    }

    /// The activity type of an HAE workout name: HealthKit's name with spaces (`Traditional Strength Training`,
    /// `High Intensity Interval Training`), the Workout app's names with their place (`Outdoor Run`, `Indoor Walk`,
    /// `Pool Swim`, `Open Water Swim`, `Indoor Cycle`), a few of the app's own words; `.other` otherwise.
    static func activity(named name: String) -> WorkoutActivityType {
        var words = name.trimmingSpaces()
        for place in ["Outdoor ", "Indoor ", "Pool ", "Open Water "] where words.hasPrefix(place) {
            words.removeFirst(place.count)
        }
        let squeezed = String(words.filter { $0 != " " }).lowercased()
        if let known = extraNames[squeezed] { return known }
        if let type = try? WorkoutActivityType.named(squeezed) { return type }
        if let type = try? WorkoutActivityType.named(String(words.map { $0 == " " ? "-" : $0 }).lowercased()) { return type }
        return .other
    }

    private static let extraNames: [String: WorkoutActivityType] = [
        "stairstepper": .stairClimbing, "rower": .rowing, "strengthtraining": .traditionalStrengthTraining,
        "cardio": .mixedCardio, "dance": .cardioDance, "wheelchairwalk": .wheelchairWalkPace, "wheelchairrun": .wheelchairRunPace,
        "mindandbody": .mindAndBody, "skating": .skatingSports,
    ]

    private static func quantity(_ value: Double, _ units: String, like unit: HealthUnit) -> Quantity? {
        guard let parsed = HealthUnit.parse(units), parsed.isCompatible(with: unit) else { return nil }
        return Quantity(value, parsed)
    }

    /// Heart rate, active energy, basal energy, steps and flights over the workout.
    private static func statistics(_ tree: HAEJSONTree, start: Date, end: Date, active: Quantity?) -> [WorkoutStatistic] {
        var statistics: [WorkoutStatistic] = []
        // Heart rate: v1 points {date, qty}, v2 points {date, Min, Avg, Max}.
        var averages: [Double] = [], lows: [Double] = [], highs: [Double] = []
        for point in tree["heartRateData"]?.items ?? [] {
            guard let average = point["Avg"]?.number ?? point["qty"]?.number else { continue }
            averages.append(average)
            lows.append(point["Min"]?.number ?? average)
            highs.append(point["Max"]?.number ?? average)
        }
        let summary = tree["heartRate"]
        let average = summary?["avg"]?.quantity?.qty ?? tree["avgHeartRate"]?.quantity?.qty
            ?? (averages.isEmpty ? nil : averages.reduce(0, +) / Double(averages.count))
        let minimum = summary?["min"]?.quantity?.qty ?? lows.min()
        let maximum = summary?["max"]?.quantity?.qty ?? tree["maxHeartRate"]?.quantity?.qty ?? highs.max()
        if average != nil || minimum != nil || maximum != nil {
            statistics.append(WorkoutStatistic(typeIdentifier: "HKQuantityTypeIdentifierHeartRate", start: start, end: end,
                                               average: average, minimum: minimum, maximum: maximum, unit: "count/min"))
        }
        // Sums: the v2 series, else the v1 totals.
        func sum(_ field: String) -> (Double, String)? {
            if let series = tree[field]?.items {
                let values = series.compactMap { $0["qty"]?.number }
                guard !values.isEmpty else { return nil }
                return (values.reduce(0, +), series.first?["units"]?.text ?? "")
            }
            return tree[field]?.quantity
        }
        if let active {
            statistics.append(WorkoutStatistic(typeIdentifier: "HKQuantityTypeIdentifierActiveEnergyBurned", start: start, end: end,
                                               sum: active.value, unit: active.unit.unitString))
            if let (total, units) = tree["totalEnergy"]?.quantity, let unit = HealthUnit.parse(units),
               let totalInActive = try? unit.convert(total, to: active.unit), totalInActive >= active.value {
                statistics.append(WorkoutStatistic(typeIdentifier: "HKQuantityTypeIdentifierBasalEnergyBurned", start: start, end: end,
                                                   sum: totalInActive - active.value, unit: active.unit.unitString))
            }
        } else if let (total, units) = sum("activeEnergy") {
            statistics.append(WorkoutStatistic(typeIdentifier: "HKQuantityTypeIdentifierActiveEnergyBurned", start: start, end: end,
                                               sum: total, unit: units.isEmpty ? "kcal" : units))
        }
        if let (steps, _) = sum("stepCount") {
            statistics.append(WorkoutStatistic(typeIdentifier: "HKQuantityTypeIdentifierStepCount", start: start, end: end,
                                               sum: steps, unit: "count"))
        }
        if let (flights, _) = tree["flightsClimbed"]?.quantity {
            statistics.append(WorkoutStatistic(typeIdentifier: "HKQuantityTypeIdentifierFlightsClimbed", start: start, end: end,
                                               sum: flights, unit: "count"))
        }
        return statistics
    }

    /// A route point, v1 (`lat`, `lon`) or v2 (`latitude`, `longitude`, with course, speed and accuracies).
    private static func routeLocation(_ point: HAEJSONTree) -> WorkoutRoute.Location? {
        guard let timestamp = point["timestamp"]?.date,
              let latitude = point["latitude"]?.number ?? point["lat"]?.number,
              let longitude = point["longitude"]?.number ?? point["lon"]?.number else { return nil }
        let location = WorkoutRoute.Location(
            timestamp: timestamp, latitude: latitude, longitude: longitude, altitude: point["altitude"]?.number,
            speed: point["speed"]?.number, course: point["course"]?.number,
            horizontalAccuracy: point["horizontalAccuracy"]?.number, verticalAccuracy: point["verticalAccuracy"]?.number,
            speedAccuracy: point["speedAccuracy"]?.number, courseAccuracy: point["courseAccuracy"]?.number)
        return location.hasValidCoordinate ? location : nil
    }
}
