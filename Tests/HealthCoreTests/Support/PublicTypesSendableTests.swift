import Foundation
import HealthCore
import Testing
import TestKit

/// Every public type of HealthCore is `Sendable`, so a value of any of them can cross into a `Task` under Swift 6's
/// strict checking. The check is the compiler's: `isSendable` only accepts `Sendable` types, so a type that loses its
/// conformance breaks the build of this file. The second test keeps the list complete: a public type declared in
/// Sources/HealthCore but missing here fails it.
struct PublicTypesSendableTests {
    /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
    /// build a tenth of a `@Test` apiece (README.md, "Development").
    @Test(arguments: publicTypesSendableTestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    /// The name of `type`, as the sources spell it: `Outer.Inner`, generic arguments left out.
    private static func isSendable<T: Sendable>(_ type: T.Type) -> String {
        var name = String(reflecting: type).replacingOccurrences(of: "HealthCore.", with: "")
        while let open = name.firstIndex(of: "<"), let close = name[open...].firstIndex(of: ">") {
            name.removeSubrange(open...close)
        }
        return name
    }

    /// The public protocols values are passed around as: their existentials are `Sendable` too.
    static let protocols: [String] = [
        isSendable((any SampleStore).self),
    ]

    static let listed: [String] = [
        isSendable(AggregationStyle.self),
        isSendable(AnchoredObjectQuery.self),
        isSendable(AnchoredObjectQueryDescriptor<HealthSample>.self),
        isSendable(AnchoredObjectQueryDescriptor<HealthSample>.Result.self),
        isSendable(AuthorizationError.self),
        isSendable(AuthorizationRequestStatus.self),
        isSendable(AuthorizationState.self),
        isSendable(AuthorizationState.Event.self),
        isSendable(AuthorizationState.Identity.self),
        isSendable(AuthorizationState.Permissions.self),
        isSendable(AuthorizationStatus.self),
        isSendable(BiologicalSex.self),
        isSendable(BiologicalSexObject.self),
        isSendable(BloodPressureSummary.self),
        isSendable(BloodPressureSummary.Bucket.self),
        isSendable(BloodPressureSummary.Figures.self),
        isSendable(BloodPressureSummary.Readings.self),
        isSendable(BloodType.self),
        isSendable(BloodTypeObject.self),
        isSendable(BucketGrid.self),
        isSendable(BucketInterval.self),
        isSendable(BucketInterval.Unit.self),
        isSendable(BucketUnit.self),
        isSendable(CategorySample.self),
        isSendable(CategoryType.self),
        isSendable(CategoryTypeIdentifier.self),
        isSendable(CategoryValue.self),
        isSendable(CategoryValueSleepAnalysis.self),
        isSendable(ChangeAnchor.self),
        isSendable(ChangeError.self),
        isSendable(ChangeSet.self),
        isSendable(CharacteristicError.self),
        isSendable(CharacteristicType.self),
        isSendable(CharacteristicTypeIdentifier.self),
        isSendable(Characteristics.self),
        isSendable(CharacteristicsMerge.self),
        isSendable(CharacteristicsMerge.Entry.self),
        isSendable(CharacteristicsMerge.Outcome.self),
        isSendable(CompactionReport.self),
        isSendable(Correlation.self),
        isSendable(CorrelationDetail.self),
        isSendable(CorrelationDetail.Member.self),
        isSendable(CorrelationError.self),
        isSendable(CorrelationQuery.self),
        isSendable(ComparisonPredicateOperator.self),
        isSendable(CorrelationType.self),
        isSendable(CorrelationTypeIdentifier.self),
        isSendable(DateRange.self),
        isSendable(DeletedObject.self),
        isSendable(Device.self),
        isSendable(DeviceDescription.self),
        isSendable(DeviceDescription.Field.self),
        isSendable(DoctorFinding.self),
        isSendable(DoctorFinding.Severity.self),
        isSendable(DoctorReport.self),
        isSendable(ExportError.self),
        isSendable(ExportFormat.self),
        isSendable(FitzpatrickSkinType.self),
        isSendable(FitzpatrickSkinTypeObject.self),
        isSendable(GregorianCalendar.self),
        isSendable(GregorianCalendar.LocalTime.self),
        isSendable(GregorianCalendar.Period.self),
        isSendable(GregorianCalendar.Step.self),
        isSendable(HealthError.self),
        isSendable(HealthObject.self),
        isSendable(HealthSample.self),
        isSendable(HealthError.Code.self),
        isSendable(HealthImporter.self),
        isSendable(HealthStore.self),
        isSendable(HealthUnit.self),
        isSendable(ISODate.self),
        isSendable(ISODate.Components.self),
        isSendable(ImportError.self),
        isSendable(ImportProgress.self),
        isSendable(ImportReceipt.self),
        isSendable(ImportReceipt.Counts.self),
        isSendable(ImportReceipt.InputKind.self),
        isSendable(ImportReceipt.Problem.self),
        isSendable(HealthAutoExportPayload.self),
        isSendable(WorkoutRoute.self),
        isSendable(SeriesType.self),
        isSendable(WorkoutRoute.Location.self),
        isSendable(GPXWriter.self),
        isSendable(GPXError.self),
        isSendable(InMemorySampleStore.self),
        isSendable(JSONFileStore.self),
        isSendable(LookAlikeFinder.self),
        isSendable(LookAlikeGroup.self),
        isSendable(MetadataCondition.self),
        isSendable(MetadataText.self),
        isSendable(MetadataValue.self),
        isSendable(MetricPrefix.self),
        isSendable(NightCutoff.self),
        isSendable(ObjectType.self),
        isSendable(ObjectType.Kind.self),
        isSendable(ObserverQuery.self),
        isSendable(ObserverQueryDescriptor.self),
        isSendable(OperationRecord.self),
        isSendable(OperationRecord.Kind.self),
        isSendable(OperationRecording.self),
        isSendable(OverflowError.self),
        isSendable(PlausibilityRules.self),
        isSendable(Quantity.self),
        isSendable(UUIDPrefix.self),
        isSendable(UUIDPrefixError.self),
        isSendable(QuantitySample.self),
        isSendable(QuantityType.self),
        isSendable(QuantityTypeIdentifier.self),
        isSendable(Query.self),
        isSendable(QueryAnchor.self),
        isSendable(Sample.self),
        isSendable(SampleContribution.self),
        isSendable(SampleDetail.self),
        isSendable(SampleContribution.Outcome.self),
        isSendable(SampleContribution.Override.self),
        isSendable(SampleError.self),
        isSendable(SaveOutcome.self),
        isSendable(SampleExporter.self),
        isSendable(SampleExporter.Summary.self),
        isSendable(SamplePredicate.self),
        isSendable(SamplePredicate.DateOptions.self),
        isSendable(SampleQuery.self),
        isSendable(SampleQueryDescriptor<HealthSample>.self),
        isSendable(SampleSortDescriptor<HealthSample>.self),
        isSendable(SampleSortDescriptor<HealthSample>.Order.self),
        isSendable(SampleType.self),
        isSendable(SampleTypeCatalogue.self),
        isSendable(SampleTypePredicate<HealthSample>.self),
        isSendable(SampleValue.self),
        isSendable(Settings.self),
        isSendable(SleepNight.self),
        isSendable(SleepNightsQuery.self),
        isSendable(Source.self),
        isSendable(SourceError.self),
        isSendable(SourceKind.self),
        isSendable(SourcePriorities.self),
        isSendable(SourcePriority.self),
        isSendable(PushTokenError.self),
        isSendable(PushTokenRecord.self),
        isSendable(SourceQuery.self),
        isSendable(SourceRevision.self),
        isSendable(SourceStatistics.self),
        isSendable(StateOfMind.self),
        isSendable(StateOfMind.Association.self),
        isSendable(StateOfMind.Kind.self),
        isSendable(StateOfMind.Label.self),
        isSendable(StateOfMind.ValenceClassification.self),
        isSendable(StateOfMindDetail.self),
        isSendable(SourceSummary.self),
        isSendable(Statistics.self),
        isSendable(StatisticsCollection.self),
        isSendable(StatisticsCollectionQuery.self),
        isSendable(StatisticsCollectionQueryDescriptor.self),
        isSendable(StatisticsError.self),
        isSendable(StatisticsOptions.self),
        isSendable(StatisticsQuery.self),
        isSendable(StatisticsQueryDescriptor.self),
        isSendable(StatisticsRequest.self),
        isSendable(StatisticsResult.self),
        isSendable(StoreChangeMonitor.self),
        isSendable(StoreDoctor.self),
        isSendable(StoreError.self),
        isSendable(StoreLocation.self),
        isSendable(TextError.self),
        isSendable(TextRules.self),
        isSendable(TimeInputError.self),
        isSendable(Tombstone.self),
        isSendable(UndoError.self),
        isSendable(UndoPlan.self),
        isSendable(UnitDimension.self),
        isSendable(UnitDimension.Base.self),
        isSendable(UnitError.self),
        isSendable(UpdateFrequency.self),
        isSendable(Workout.self),
        isSendable(WorkoutActivity.self),
        isSendable(WorkoutActivityType.self),
        isSendable(WorkoutDetail.self),
        isSendable(WorkoutError.self),
        isSendable(WorkoutEvent.self),
        isSendable(WorkoutEvent.Kind.self),
        isSendable(WorkoutQuery.self),
        isSendable(WorkoutRouteQuery.self),
        isSendable(WorkoutStatistic.self),
        isSendable(WorkoutSummary.self),
        isSendable(WorkoutSummary.Bucket.self),
        isSendable(WorkoutSummary.Figures.self),
        isSendable(WorkoutType.self),
        isSendable(ZoneDatabase.self),
        isSendable(ZoneRules.self),
    ]

    func everyPublicTypeIsListed() throws {
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../../Sources/HealthCore").standardizedFileURL.path
        let files = try #require(FileManager.default.enumerator(atPath: sources)?.allObjects as? [String])
        var declared: Set<String> = []
        for file in files where file.hasSuffix(".swift") {
            var outer: String?
            for line in try String(contentsOfFile: sources + "/" + file, encoding: .utf8).split(separator: "\n") {
                let words = line.split(separator: " ").map(String.init)
                let indented = line.hasPrefix(" ")
                if !indented, let kind = words.firstIndex(where: { ["class", "struct", "enum", "actor", "extension"].contains($0) }),
                   kind + 1 < words.count {
                    outer = Self.bareName(words[kind + 1])
                }
                guard words.first == "public",
                      let kind = words.firstIndex(where: { ["class", "struct", "enum", "actor"].contains($0) }),
                      kind <= 2, kind + 1 < words.count else { continue }
                let name = Self.bareName(words[kind + 1])
                declared.insert(indented ? "\(outer ?? "?").\(name)" : name)
            }
        }
        #expect(declared.count > 150)
        let missing = declared.subtracting(Self.listed).sorted()
        #expect(missing.isEmpty, "add these public types to PublicTypesSendableTests.listed (and make them Sendable): \(missing)")
    }

    func protocolsAreSendable() {
        expectEqual(Self.protocols, ["SampleStore"])
    }

    /// `Foo<T>:` or `Foo:` → `Foo`.
    private static func bareName(_ word: String) -> String {
        String(word.prefix { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "." })
    }
}

/// The checks ``PublicTypesSendableTests/checks(_:)`` runs.
private let publicTypesSendableTestsChecks: [Check<PublicTypesSendableTests>] = [
    Check("everyPublicTypeIsListed", PublicTypesSendableTests.everyPublicTypeIsListed),
    Check("protocolsAreSendable", PublicTypesSendableTests.protocolsAreSendable),
]
