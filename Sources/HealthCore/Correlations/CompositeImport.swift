/// Turns the `Workout` and `Correlation` elements of an Apple Health export, read generically, into typed
/// workouts and correlations.
enum CompositeImport {
    /// The typed sample of a generic `Workout` or `Correlation` element, or nil to keep it generic (another element,
    /// an activity or correlation type HealthKit does not name, attributes that do not read).
    /// A workout's route is read from the GPX file its `WorkoutRoute` element names, when `routes` reaches it.
    static func typed(_ sample: Sample, element: String, members: [CorrelationDetail.Member],
                      routes: WorkoutRouteFiles? = nil) -> Sample? {
        switch element {
        case WorkoutExportForm.element:
            return WorkoutExportForm.typed(sample, routes: routes)
        case "Correlation":
            guard let type = CorrelationType.identified(sample.typeIdentifier) else { return nil }
            var typed = Correlation.sample(of: type, members: [], start: sample.start, end: sample.end, source: sample.source,
                                           created: sample.created, metadata: sample.metadata, uuid: sample.uuid)
            typed.detail = .correlation(CorrelationDetail(members: members))
            typed.sourceVersion = sample.sourceVersion
            typed.device = sample.device
            return typed
        default:
            return nil
        }
    }

    /// The member reference of a record read inside a correlation (none when it was rejected).
    static func member(_ record: MappedRecord) -> [CorrelationDetail.Member] {
        guard case let .sample(sample, _, _) = record else { return [] }
        return [CorrelationDetail.Member(uuid: sample.uuid, typeIdentifier: sample.typeIdentifier)]
    }
}
