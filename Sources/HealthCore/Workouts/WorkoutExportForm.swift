import TextSupport

/// Converts between a typed workout sample and the form an Apple Health export gives it: a `Workout` element
/// whose attributes are `@`-prefixed metadata (`@workoutActivityType`, `@duration`, ...) and whose children
/// (`WorkoutEvent`, `WorkoutStatistics`, `WorkoutActivity`, `WorkoutRoute`) are kept as JSON in `@children`.
///
/// An imported workout keeps that form in its metadata as well as its typed ``WorkoutDetail``, so a Health XML
/// export writes it back exactly as read, and its identity (``RecordIdentity``) is the same whether or not it was
/// typed. A workout saved in code gets the form made up from its detail when it is exported.
enum WorkoutExportForm {
    static let element = "Workout"

    /// The typed workout sample of an imported `Workout` element kept generically, or nil when its activity type
    /// is not one HealthKit names or its attributes do not read.
    /// `routes`: where the GPX file named by a `WorkoutRoute` child (`FileReference path=…`) is read from; its
    /// locations become the workout's ``WorkoutDetail/route``. Without it, or when the file is missing or does not
    /// read, the workout has no route (the element itself is kept, and exported back, either way).
    static func typed(_ generic: Sample, routes: WorkoutRouteFiles? = nil) -> Sample? {
        let meta = generic.metadata
        guard generic.typeIdentifier == Workout.typeIdentifier, text(meta["@element"]) == element,
              let activityText = text(meta["@workoutActivityType"]),
              let activity = WorkoutActivityType.exported(activityText) else { return nil }
        let nodes = text(meta["@children"]).flatMap { try? ExportNode.nodes(fromJSON: $0) } ?? []
        var detail = WorkoutDetail(duration: generic.duration)
        if let duration = seconds(text(meta["@duration"]), unit: text(meta["@durationUnit"])) {
            detail.duration = min(duration, generic.duration)
        }
        detail.totalEnergyBurned = quantity(text(meta["@totalEnergyBurned"]), unit: text(meta["@totalEnergyBurnedUnit"]))
        detail.totalDistance = quantity(text(meta["@totalDistance"]), unit: text(meta["@totalDistanceUnit"]))
        detail.events = nodes.compactMap(event)
        detail.statistics = nodes.compactMap(statistic)
        detail.activities = nodes.filter { $0.name == "WorkoutActivity" }.compactMap(activityPart)
        if let routes, let path = routePath(in: nodes) {
            detail.route = routes.route(atPath: path)
        }
        var typed = generic
        typed.value = .category(activity.rawValue)
        typed.detail = .workout(detail)
        return typed
    }

    /// The GPX file a generic `Workout` element's `WorkoutRoute` names (`/workout-routes/route_….gpx`), if any.
    static func routePath(of generic: Sample) -> String? {
        guard let children = text(generic.metadata["@children"]), children.contains("FileReference"),
              let nodes = try? ExportNode.nodes(fromJSON: children) else { return nil }
        return routePath(in: nodes)
    }

    private static func routePath(in nodes: [ExportNode]) -> String? {
        nodes.first(where: { $0.name == "WorkoutRoute" })?.children.first(where: { $0.name == "FileReference" })?.attribute("path")
    }

    /// The export form of a typed workout sample (the sample itself when it is not one, or already has it).
    static func generic(_ typed: Sample) -> Sample {
        guard let workout = Workout(sample: typed) else { return typed }
        var generic = typed
        generic.detail = nil
        if text(typed.metadata["@element"]) == element {
            generic.value = .generic(value: text(typed.metadata["@workoutActivityType"]) ?? "", unit: nil)
            return generic
        }
        let detail = workout.detail
        generic.metadata["@element"] = .string(element)
        generic.metadata["@workoutActivityType"] = .string(workout.activity.exportName)
        generic.metadata["@duration"] = .string(NumberFormatting.json(detail.duration / 60))
        generic.metadata["@durationUnit"] = .string("min")
        if let energy = detail.totalEnergyBurned {
            generic.metadata["@totalEnergyBurned"] = .string(NumberFormatting.json(energy.value))
            generic.metadata["@totalEnergyBurnedUnit"] = .string(energy.unit.unitString)
        }
        if let distance = detail.totalDistance {
            generic.metadata["@totalDistance"] = .string(NumberFormatting.json(distance.value))
            generic.metadata["@totalDistanceUnit"] = .string(distance.unit.unitString)
        }
        let children = detail.events.map(node) + detail.statistics.map(node)
        if !children.isEmpty { generic.metadata["@children"] = .string(ExportNode.json(children)) }
        generic.value = .generic(value: workout.activity.exportName, unit: nil)
        return generic
    }

    // MARK: - Nodes

    private static func text(_ value: MetadataValue?) -> String? {
        switch value {
        case let .string(text)?: return text
        case let .number(number)?: return NumberFormatting.json(number)
        case nil: return nil
        }
    }

    private static func seconds(_ value: String?, unit: String?) -> TimeInterval? {
        guard let value, let number = DecimalParser.parse(value), number >= 0,
              let unit = HealthUnit.parse(unit ?? "min"), let seconds = try? unit.convert(number, to: .second()) else { return nil }
        return seconds
    }

    private static func quantity(_ value: String?, unit: String?) -> Quantity? {
        guard let value, let number = DecimalParser.parse(value), let unit, let parsed = HealthUnit.parse(unit) else { return nil }
        return Quantity(number, parsed)
    }

    private static func event(_ node: ExportNode) -> WorkoutEvent? {
        guard node.name == "WorkoutEvent", let kind = node.attribute("type").flatMap(WorkoutEvent.Kind.init(name:)),
              let date = node.attribute("date").flatMap(ExportDateParser.parse) else { return nil }
        return WorkoutEvent(kind: kind, date: date,
                            duration: seconds(node.attribute("duration"), unit: node.attribute("durationUnit")) ?? 0)
    }

    private static func statistic(_ node: ExportNode) -> WorkoutStatistic? {
        guard node.name == "WorkoutStatistics", let type = node.attribute("type"),
              let start = node.attribute("startDate").flatMap(ExportDateParser.parse),
              let end = node.attribute("endDate").flatMap(ExportDateParser.parse) else { return nil }
        func number(_ name: String) -> Double? { node.attribute(name).flatMap { DecimalParser.parse($0) } }
        return WorkoutStatistic(typeIdentifier: type, start: start, end: end, sum: number("sum"), average: number("average"),
                                minimum: number("minimum"), maximum: number("maximum"), unit: node.attribute("unit"))
    }

    private static func activityPart(_ node: ExportNode) -> WorkoutActivity? {
        guard let start = node.attribute("startDate").flatMap(ExportDateParser.parse) else { return nil }
        var metadata: [String: String] = [:]
        for child in node.children where child.name == "MetadataEntry" {
            if let key = child.attribute("key") { metadata[key] = child.attribute("value") ?? "" }
        }
        return WorkoutActivity(uuid: node.attribute("uuid"), start: start,
                               end: node.attribute("endDate").flatMap(ExportDateParser.parse),
                               duration: seconds(node.attribute("duration"), unit: node.attribute("durationUnit")),
                               events: node.children.compactMap(event), statistics: node.children.compactMap(statistic),
                               metadata: metadata)
    }

    private static func node(_ event: WorkoutEvent) -> ExportNode {
        var attributes = [ExportNode.Attribute(name: "type", value: event.kind.exportName),
                          ExportNode.Attribute(name: "date", value: ExportDateParser.format(event.date, offsetSeconds: 0))]
        if event.duration > 0 {
            attributes.append(ExportNode.Attribute(name: "duration", value: NumberFormatting.json(event.duration / 60)))
            attributes.append(ExportNode.Attribute(name: "durationUnit", value: "min"))
        }
        return ExportNode(name: "WorkoutEvent", attributes: attributes)
    }

    private static func node(_ statistic: WorkoutStatistic) -> ExportNode {
        var attributes = [ExportNode.Attribute(name: "type", value: statistic.typeIdentifier),
                          ExportNode.Attribute(name: "startDate", value: ExportDateParser.format(statistic.start, offsetSeconds: 0)),
                          ExportNode.Attribute(name: "endDate", value: ExportDateParser.format(statistic.end, offsetSeconds: 0))]
        for (name, value) in statistic.figures { attributes.append(ExportNode.Attribute(name: name, value: NumberFormatting.json(value))) }
        if let unit = statistic.unit { attributes.append(ExportNode.Attribute(name: "unit", value: unit)) }
        return ExportNode(name: "WorkoutStatistics", attributes: attributes)
    }
}
