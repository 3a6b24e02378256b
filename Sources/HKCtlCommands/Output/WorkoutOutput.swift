import HealthCore
import TextSupport

/// Renders workouts (`add workout`, `list workouts`, `changes`) and workout summaries (`stats workouts`).
struct WorkoutOutput {
    let context: CommandContext
    var zone: ZoneRules { context.globals.time.timeZone }

    /// The zone a workout is shown in: with `--tz recorded` the one it was recorded in, else the command's.
    private func zone(of workout: Workout) -> ZoneRules {
        context.globals.recordedZones?.zone(of: workout.sample, fallback: zone) ?? zone
    }

    /// `{"uuid","type","activity","activityType","start","end","duration","totalEnergyBurned","totalDistance",
    /// "pace","averageHeartRate","events","statistics","route","source","metadata"}`; the totals are the workout's, else
    /// its statistics' (kcal, m); `statistics` has each type's figures once (``Workout/totalStatistics``); `route` is
    /// `{"locations":N,"start":…,"end":…}` (the route's point count and its first and last times) or null.
    func json(_ workout: Workout, heartRate: Double?) -> String {
        let zone = zone(of: workout)
        var text = "{\"uuid\":\"\(workout.uuid.lowercasedText)\",\"type\":\"\(Workout.typeIdentifier)\""
        text += ",\"activity\":\(JSONText.quoted(workout.activity.name)),\"activityType\":\(workout.activity.rawValue)"
        text += ",\"start\":\"\(ISODate.format(workout.start, in: zone))\",\"end\":\"\(ISODate.format(workout.end, in: zone))\""
        text += ",\"duration\":" + NumberFormatting.json(workout.duration)
        // The totals as written, else from the statistics (where iOS 16+ exports keep them), as CSV and tables give them.
        text += ",\"totalEnergyBurned\":" + (workout.detail.totalEnergyBurned.map(quantity)
            ?? workout.energyKilocalories.map { quantity(Quantity($0, Workout.kilocalorie)) } ?? "null")
        let written = workout.detail.totalDistance
        if let written, written.value > 0 {
            text += ",\"totalDistance\":" + quantity(written)
        } else if let meters = workout.distanceMeters, written == nil || meters > 0 {
            text += ",\"totalDistance\":" + quantity(Quantity(meters, Workout.meter))
        } else {
            text += ",\"totalDistance\":" + (written.map(quantity) ?? "null")
        }
        text += ",\"pace\":" + (workout.paceSecondsPerKilometer.finite.map { NumberFormatting.json($0.rounded()) } ?? "null")
        text += ",\"averageHeartRate\":" + (heartRate.map { NumberFormatting.json(($0 * 10).rounded() / 10) } ?? "null")
        text += ",\"events\":[" + workout.detail.events.map { event in
            "{\"type\":\"\(event.kind.name)\",\"date\":\"\(ISODate.format(event.date, in: zone))\",\"duration\":"
                + NumberFormatting.json(event.duration) + "}"
        }.joined(separator: ",") + "]"
        text += ",\"statistics\":[" + workout.totalStatistics.map { statistic in
            var item = "{\"type\":" + JSONText.quoted(statistic.typeIdentifier) + ",\"start\":\""
                + ISODate.format(statistic.start, in: zone) + "\",\"end\":\"" + ISODate.format(statistic.end, in: zone) + "\""
            for (name, value) in [("sum", statistic.sum), ("average", statistic.average), ("minimum", statistic.minimum),
                                  ("maximum", statistic.maximum)] {
                if let value { item += ",\"\(name)\":" + NumberFormatting.json(value) }
            }
            return item + ",\"unit\":" + (statistic.unit.map(JSONText.quoted) ?? "null") + "}"
        }.joined(separator: ",") + "]"
        if let route = workout.detail.route, let first = route.locations.first, let last = route.locations.last {
            text += ",\"route\":{\"locations\":\(route.locations.count),\"start\":\"\(ISODate.format(first.timestamp, in: zone))\""
                + ",\"end\":\"\(ISODate.format(last.timestamp, in: zone))\"}"
        } else {
            text += ",\"route\":null"
        }
        text += ",\"source\":\(JSONText.quoted(workout.source))"
        return text + MetadataJSON.field(workout.sample.metadata) + "}"
    }

    private func quantity(_ quantity: Quantity) -> String {
        "{\"value\":\(NumberFormatting.json(quantity.value)),\"unit\":\(JSONText.quoted(quantity.unit.unitString))}"
    }

    static let csvHeader = ["uuid", "activity", "start", "end", "duration", "energy_kcal", "distance_m", "pace_s_per_km",
                            "average_heart_rate", "source", "metadata"]

    private func csv(_ workout: Workout, heartRate: Double?) -> String {
        let zone = zone(of: workout)
        return CSV.row([
            workout.uuid.lowercasedText, workout.activity.name, ISODate.format(workout.start, in: zone),
            ISODate.format(workout.end, in: zone), NumberFormatting.json(workout.duration),
            workout.energyKilocalories.finite.map(NumberFormatting.json) ?? "", workout.distanceMeters.finite.map(NumberFormatting.json) ?? "",
            workout.paceSecondsPerKilometer.finite.map { NumberFormatting.json($0.rounded()) } ?? "",
            heartRate.map { NumberFormatting.json(($0 * 10).rounded() / 10) } ?? "", workout.source,
            MetadataText.csvField(workout.sample.metadata, userOnly: true),
        ])
    }

    /// Prints workouts; `single` prints one JSON object instead of an array (for `add`).
    func print(_ workouts: [Workout], heartRates: [UUID: Double], single: Bool = false) {
        let console = context.console
        switch context.globals.format {
        case .json:
            let objects = workouts.map { json($0, heartRate: heartRates[$0.uuid]) }
            if single, let only = objects.first { console.line(only) } else { console.line("[" + objects.joined(separator: ",") + "]") }
        case .csv:
            console.line(CSV.row(WorkoutOutput.csvHeader))
            for workout in workouts { console.line(csv(workout, heartRate: heartRates[workout.uuid])) }
        case .table:
            if workouts.isEmpty {
                console.note("No workouts in this range.")
                return
            }
            let metadata = MetadataColumn(workouts.map(\.sample.metadata))
            var table = TableWriter(headers: metadata.headers(["START", "ACTIVITY", "DURATION", "ENERGY", "DISTANCE", "PACE", "HR", "SOURCE", "UUID"]),
                                    rightAligned: [2, 3, 4, 5, 6])
            for workout in workouts {
                table.add(metadata.row([Display.time(workout.start, in: zone(of: workout)), workout.activity.name, Display.duration(workout.duration),
                           workout.energyKilocalories.finite.map { NumberFormatting.human($0, fractionDigits: 0) + " kcal" } ?? "-",
                           workout.distanceMeters.finite.map { NumberFormatting.human($0 / 1000, fractionDigits: 2) + " km" } ?? "-",
                           workout.paceSecondsPerKilometer.map(WorkoutOutput.pace) ?? "-",
                           heartRates[workout.uuid].map { NumberFormatting.human($0, fractionDigits: 0) } ?? "-",
                           workout.source, workout.uuid.lowercasedText], workout.sample.metadata))
            }
            for line in table.lines() { console.line(line) }
        }
    }

    /// `5:12 /km`.
    static func pace(_ secondsPerKilometer: Double) -> String {
        let seconds = Int(saturating: secondsPerKilometer.rounded())
        return "\(seconds / 60):\(NumberFormatting.zeroPadded(seconds % 60, width: 2)) /km"
    }

    // MARK: - Summary

    private func figuresJSON(_ figures: WorkoutSummary.Figures) -> String {
        func number(_ value: Double?) -> String { value.map { NumberFormatting.json(($0 * 1000).rounded() / 1000) } ?? "null" }
        return "\"count\":\(figures.count),\"totalDuration\":\(number(figures.totalDuration)),\"averageDuration\":\(number(figures.averageDuration)),"
            + "\"energy\":\(number(figures.energyKilocalories)),\"distance\":\(number(figures.distanceMeters)),"
            + "\"pace\":\(number(figures.paceSecondsPerKilometer?.rounded()))"
    }

    /// `{"type","activity","from","to","units":{…},<figures>,"buckets":[{"start","end",<figures>}]}`.
    func print(_ summary: WorkoutSummary, activity: WorkoutActivityType?, bucketed: Bool) {
        let console = context.console
        let rows: [(DateInterval, WorkoutSummary.Figures)] = bucketed
            ? summary.buckets.map { ($0.interval, $0.figures) } : [(summary.interval, summary.total)]
        switch context.globals.format {
        case .json:
            var text = "{\"type\":\"\(Workout.typeIdentifier)\",\"activity\":" + (activity.map { JSONText.quoted($0.name) } ?? "null")
            text += ",\"from\":\"\(ISODate.format(summary.interval.start, in: zone))\",\"to\":\"\(ISODate.format(summary.interval.end, in: zone))\""
            text += ",\"units\":{\"duration\":\"s\",\"energy\":\"kcal\",\"distance\":\"m\",\"pace\":\"s/km\"},"
            text += figuresJSON(summary.total)
            if bucketed {
                text += ",\"buckets\":[" + summary.buckets.map { bucket in
                    "{\"start\":\"\(ISODate.format(bucket.interval.start, in: zone))\",\"end\":\"\(ISODate.format(bucket.interval.end, in: zone))\","
                        + figuresJSON(bucket.figures) + "}"
                }.joined(separator: ",") + "]"
            }
            console.line(text + "}")
        case .csv:
            console.line("start,end,count,total_duration_s,average_duration_s,energy_kcal,distance_m,pace_s_per_km")
            // The figures JSON has, to 3 decimals (no arithmetic noise: 1.1 km is 1100 m, not 1100.0000000000002).
            func number(_ value: Double) -> String { NumberFormatting.json(DerivedFigure.rounded(value, decimals: 3)) }
            for (interval, figures) in rows {
                console.line(CSV.row([ISODate.format(interval.start, in: zone), ISODate.format(interval.end, in: zone),
                                      String(figures.count), number(figures.totalDuration),
                                      figures.averageDuration.map(number) ?? "",
                                      figures.energyKilocalories.map(number) ?? "",
                                      figures.distanceMeters.map(number) ?? "",
                                      figures.paceSecondsPerKilometer.map { NumberFormatting.json($0.rounded()) } ?? ""]))
            }
        case .table:
            var table = TableWriter(headers: ["START", "END", "COUNT", "TOTAL", "AVERAGE", "ENERGY", "DISTANCE", "PACE"],
                                    rightAligned: [2, 3, 4, 5, 6, 7])
            for (interval, figures) in rows {
                table.add([Display.time(interval.start, in: zone), Display.time(interval.end, in: zone), String(figures.count),
                           Display.duration(figures.totalDuration), figures.averageDuration.map(Display.duration) ?? "-",
                           figures.energyKilocalories.map { NumberFormatting.human($0, fractionDigits: 0) + " kcal" } ?? "-",
                           figures.distanceMeters.map { NumberFormatting.human($0 / 1000, fractionDigits: 2) + " km" } ?? "-",
                           figures.paceSecondsPerKilometer.map(WorkoutOutput.pace) ?? "-"])
            }
            for line in table.lines() { console.line(line) }
        }
    }
}

/// The `metadata` field of composite JSON: every key but the `@` keys that keep an export's form, so `HKTimeZone` is
/// there as in the JSON of other samples (tables leave it out).
enum MetadataJSON {
    static func field(_ metadata: [String: MetadataValue]) -> String {
        metadata.keys.contains { !$0.hasPrefix("@") } ? ",\"metadata\":" + MetadataText.json(metadata, userOnly: true) : ""
    }
}

extension Optional where Wrapped == Double {
    /// The value when it is a finite number (a hand-edited 1e308 km is infinite in metres): a row shows `-` instead.
    var finite: Double? { flatMap { $0.isFinite ? $0 : nil } }
}
