import Foundation
import HealthCore
import Testing
import TestKit

// Sleep read the two ways public HealthKit client code reads it, spelled by the porting rules alone
// (docs/LIBRARY.md, "Real client code, in its own shapes").
//
// NOT a copy of those files: the code index they were found in keeps third-party code out of this repository, so the
// functions below were written here, call for call in the shapes of (read 28 November 2026, no licence file in either
// repository):
//   - handler-based: Mirinwino/SLOOP, SLOOP/Models/readsleep.swift (`readSleep(from:to:)`: HKObjectType.categoryType,
//     HKQuery.predicateForSamples(withStart:end:options: .strictStartDate) with optional dates,
//     NSSortDescriptor(key: HKSampleSortIdentifierEndDate, ascending: false), HKSampleQuery with a limit of 30 and a
//     trailing results handler, compactMap { $0 as? HKCategorySample }, HKCategoryValueSleepAnalysis(rawValue:),
//     `== .asleep`, sourceRevision.source.name) and RicardoDuarteS/HeathKitSample,
//     HealthKitSampleProject/ButtonAction/SleepTimeAction.swift (HKSampleType.categoryType, predicate nil,
//     HKObjectQueryNoLimit, `value == HKCategoryValueSleepAnalysis.inBed.rawValue ? "InBed" : "Asleep"`; its UILabel
//     updates are left out);
//   - async descriptors: "HealthKitManager+SleepActivity.swift" by Fernando Fuentes (repository not named by the
//     index): HKCategoryType(.sleepAnalysis), a predicate from 9 h before to 15 h after the day's start,
//     HKSampleQueryDescriptor(predicates: [.categorySample(...)], sortDescriptors: [SortDescriptor(\.startDate,
//     order: .reverse)]), `switch sample.value { case HKCategoryValueSleepAnalysis.asleepREM.rawValue: ... }`.
// Each HealthKit name below is renamed by the rules only (`HK` dropped, NSSortDescriptor → SampleSortDescriptor,
// HKObjectQueryNoLimit → ObjectQueryNoLimit, HKSamplePredicate → SampleTypePredicate as LIBRARY.md lists it), except
// `Calendar(identifier: .gregorian)`, which is the pinned UTC calendar here.

enum ClientPatternError: Error { case typeUnavailable }

struct SleepEntry: Equatable, Sendable {
    let start: Date
    let end: Date
    let value: CategoryValueSleepAnalysis
    let source: String
    let isAsleep: Bool
}

struct SleepStages: Equatable, Sendable {
    var awakeTimes = 0
    var asleepREMSeconds: Double = 0
    var asleepCoreSeconds: Double = 0
    var deepSleepSeconds: Double = 0
}

/// Handler-based: HKSampleQuery with a results handler, resumed into async code through a continuation.
struct HandlerSleepReader {
    let healthStore: HealthStore

    //>> readSleep
    func readSleep(from startDate: Date?, to endDate: Date?, limit: Int = 30) async throws -> [SleepEntry] {
        guard let sleepType = ObjectType.categoryType(forIdentifier: .sleepAnalysis) else {
            throw ClientPatternError.typeUnavailable
        }
        let predicate = Query.predicateForSamples(withStart: startDate, end: endDate, options: .strictStartDate)
        let sortDescriptor = SampleSortDescriptor(key: SampleSortIdentifierEndDate, ascending: false)
        return try await withCheckedThrowingContinuation { continuation in
            let query = SampleQuery(sampleType: sleepType, predicate: predicate, limit: limit, sortDescriptors: [sortDescriptor]) { (query, result, error) in
                if let error = error {
                    continuation.resume(throwing: error)
                    return
                }
                let entries = (result ?? [])
                    .compactMap({ $0 as? CategorySample })
                    .compactMap({ sample -> SleepEntry? in
                        guard let sleepValue = CategoryValueSleepAnalysis(rawValue: sample.value) else {
                            return nil
                        }
                        let isAsleep = sleepValue == .asleep
                        return SleepEntry(start: sample.startDate, end: sample.endDate, value: sleepValue,
                                          source: sample.sourceRevision.source.name, isAsleep: isAsleep)
                    })
                continuation.resume(returning: entries)
            }
            healthStore.execute(query)
        }
    }
    //<<

    //>> sleepLabels
    func readSleepLabels() async throws -> [String] {
        guard let sleepTime = SampleType.categoryType(forIdentifier: .sleepAnalysis) else {
            throw ClientPatternError.typeUnavailable
        }
        let sortDescriptor = SampleSortDescriptor(key: SampleSortIdentifierEndDate, ascending: false)
        return try await withCheckedThrowingContinuation { continuation in
            let sleepTimeQuery = SampleQuery(sampleType: sleepTime, predicate: nil, limit: ObjectQueryNoLimit, sortDescriptors: [sortDescriptor]) { (sampleQuery, results, error) in
                var labels: [String] = []
                if let result = results {
                    for item in result {
                        if let sample = item as? CategorySample {
                            let value = (sample.value == CategoryValueSleepAnalysis.inBed.rawValue) ? "InBed" : "Asleep"
                            labels.append(value)
                        }
                    }
                }
                continuation.resume(returning: labels)
            }
            healthStore.execute(sleepTimeQuery)
        }
    }
    //<<
}

/// Async descriptors: HKSamplePredicate / HKSampleQueryDescriptor with `result(for:)`.
struct DescriptorSleepReader {
    let healthStore: HealthStore

    //>> getSleepStages
    private func getPredicateForSleep(date: Date) -> SampleTypePredicate<CategorySample> {
        let sleepSampleType = CategoryType(.sleepAnalysis)
        let calendar = Seed.calendar
        let startDate = calendar.date(byAdding: .hour, value: -9, to: calendar.startOfDay(for: date))!
        let endDate = calendar.date(byAdding: .hour, value: 15, to: calendar.startOfDay(for: date))!
        let predicateForSamples = Query.predicateForSamples(withStart: startDate, end: endDate)
        return .categorySample(type: sleepSampleType, predicate: predicateForSamples)
    }

    func getDescriptorForSleep(date: Date) -> SampleQueryDescriptor<CategorySample> {
        SampleQueryDescriptor(
            predicates: [getPredicateForSleep(date: date)],
            sortDescriptors: [SortDescriptor(\.startDate, order: .reverse)]
        )
    }

    func getSleepStages(date: Date) async throws -> SleepStages {
        var stages = SleepStages()
        let samples = try await getDescriptorForSleep(date: date).result(for: healthStore)
        for sample in samples {
            let duration = sample.endDate.timeIntervalSince(sample.startDate)
            switch sample.value {
            case CategoryValueSleepAnalysis.asleepREM.rawValue:
                stages.asleepREMSeconds += duration
            case CategoryValueSleepAnalysis.asleepCore.rawValue:
                stages.asleepCoreSeconds += duration
            case CategoryValueSleepAnalysis.asleepDeep.rawValue:
                stages.deepSleepSeconds += duration
            case CategoryValueSleepAnalysis.awake.rawValue:
                stages.awakeTimes += 1
            default:
                break
            }
        }
        return stages
    }
    //<<
}

struct ClientPatternSleepTests {
    /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
    /// build a tenth of a `@Test` apiece (README.md, "Development").
    @Test(arguments: clientPatternSleepTestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    /// Two nights, by hand:
    /// - 8→9 June, recorded the pre-iOS 16 way: in bed 22:30–07:00, `.asleep` (unspecified) 23:00–06:30 (7 h 30 min).
    /// - 9→10 June, staged: in bed 22:45–06:50; core 23:00–01:30 (2 h 30), deep 01:30–02:30 (1 h), REM 02:30–03:30 (1 h),
    ///   awake 03:30–03:45, core 03:45–05:30 (1 h 45), REM 05:30–06:30 (1 h), awake 06:30–06:45.
    ///   Core 4 h 15 = 15,300 s, deep 3,600 s, REM 2 h = 7,200 s, awake twice; asleep 7 h 15 min.
    static func saveNights(in store: HealthStore) async throws {
        func sleep(_ value: CategoryValueSleepAnalysis, _ start: String, _ end: String) -> HealthSample {
            CategorySample(type: CategoryType(.sleepAnalysis), value: value.rawValue, start: Seed.date(start), end: Seed.date(end))
        }
        try await store.save([
            sleep(.inBed, "2024-06-08T22:30:00Z", "2024-06-09T07:00:00Z"),
            sleep(.asleep, "2024-06-08T23:00:00Z", "2024-06-09T06:30:00Z"),
            sleep(.inBed, "2024-06-09T22:45:00Z", "2024-06-10T06:50:00Z"),
            sleep(.asleepCore, "2024-06-09T23:00:00Z", "2024-06-10T01:30:00Z"),
            sleep(.asleepDeep, "2024-06-10T01:30:00Z", "2024-06-10T02:30:00Z"),
            sleep(.asleepREM, "2024-06-10T02:30:00Z", "2024-06-10T03:30:00Z"),
            sleep(.awake, "2024-06-10T03:30:00Z", "2024-06-10T03:45:00Z"),
            sleep(.asleepCore, "2024-06-10T03:45:00Z", "2024-06-10T05:30:00Z"),
            sleep(.asleepREM, "2024-06-10T05:30:00Z", "2024-06-10T06:30:00Z"),
            sleep(.awake, "2024-06-10T06:30:00Z", "2024-06-10T06:45:00Z"),
        ])
    }

    func handlerReadSleepOfLastNight() async throws {
        try await Seed.withStore { store in
            try await Self.saveNights(in: store)
            let reader = HandlerSleepReader(healthStore: store)
            // Starting from 9 June 12:00 (strict start): last night's 8 samples, latest end first.
            let entries = try await reader.readSleep(from: Seed.date("2024-06-09T12:00:00Z"), to: Seed.now)
            #expect(entries.map(\.value) == [.inBed, .awake, .asleepREM, .asleepCore, .awake, .asleepREM, .asleepDeep, .asleepCore])
            #expect(entries.map(\.end) == ["06:50", "06:45", "06:30", "05:30", "03:45", "03:30", "02:30", "01:30"].map { Seed.date("2024-06-10T\($0):00Z") })
            // Asleep, any stage: 2 h 30 + 1 h + 1 h + 1 h 45 + 1 h = 7 h 15 min.
            let asleep = entries.filter { CategoryValueSleepAnalysis.allAsleepValues.contains($0.value) }.reduce(0) { $0 + $1.end.timeIntervalSince($1.start) }
            #expect(asleep == 7.25 * 3_600)
            // `== .asleep` is `asleepUnspecified` (raw value 1), as in HealthKit since iOS 16: no staged sample is it.
            #expect(entries.allSatisfy { !$0.isAsleep })
            #expect(Set(entries.map(\.source)) == [AuthorizationState.ownerSource])
            // A limit keeps the first samples of the order: the three latest ends.
            #expect(try await reader.readSleep(from: nil, to: nil, limit: 3).map(\.value) == [.inBed, .awake, .asleepREM])
        }
    }

    func handlerReadSleepOfTheOldNight() async throws {
        try await Seed.withStore { store in
            try await Self.saveNights(in: store)
            // 8 June 12:00 to 9 June 12:00: the pre-iOS 16 night, 7 h 30 min `.asleep` (23:00–06:30), and its in-bed time.
            let entries = try await HandlerSleepReader(healthStore: store).readSleep(from: Seed.date("2024-06-08T12:00:00Z"), to: Seed.date("2024-06-09T12:00:00Z"))
            #expect(entries.map(\.value) == [.inBed, .asleepUnspecified])
            #expect(entries.map(\.isAsleep) == [false, true])
            #expect(entries[1].end.timeIntervalSince(entries[1].start) == 7.5 * 3_600)
        }
    }

    func handlerSleepLabels() async throws {
        try await Seed.withStore { store in
            try await Self.saveNights(in: store)
            // All 10 samples, latest end first: last night's 8 (in bed, ending 06:50, first), then the old night's in bed
            // (9 June 07:00) and asleep (06:30). Every value but in bed is labelled "Asleep", awake included, as the
            // ternary says.
            let labels = try await HandlerSleepReader(healthStore: store).readSleepLabels()
            #expect(labels == ["InBed"] + Array(repeating: "Asleep", count: 7) + ["InBed", "Asleep"])
        }
    }

    /// Not a rule but a trap: dropping the prefix of `HKSample` gives `Sample`, which compiles, without a warning, as
    /// HealthCore's stored record; a handler's `results as? [Sample]` is then always nil. `HKSample` is `HealthSample`.
    func hkSampleIsHealthSampleNotSample() {
        let results: [HealthSample]? = [CategorySample(type: CategoryType(.sleepAnalysis), value: CategoryValueSleepAnalysis.inBed.rawValue,
                                                       start: Seed.date("2024-06-09T22:00:00Z"), end: Seed.date("2024-06-10T06:00:00Z"))]
        #expect((results as? [Sample])?.count == nil)
        #expect((results as? [CategorySample])?.count == 1)
    }

    func descriptorSleepStages() async throws {
        try await Seed.withStore { store in
            try await Self.saveNights(in: store)
            let reader = DescriptorSleepReader(healthStore: store)
            // 10 June: 9 June 15:00 to 10 June 15:00, overlapping: last night. Core 15,300 s, deep 3,600 s, REM 7,200 s,
            // awake twice.
            #expect(try await reader.getSleepStages(date: Seed.now) == SleepStages(awakeTimes: 2, asleepREMSeconds: 7_200, asleepCoreSeconds: 15_300, deepSleepSeconds: 3_600))
            // Latest start first: the 06:30 awake, and the 22:45 in bed last.
            let samples = try await reader.getDescriptorForSleep(date: Seed.now).result(for: store)
            #expect(samples.count == 8)
            #expect(samples.first?.startDate == Seed.date("2024-06-10T06:30:00Z"))
            #expect(samples.last?.startDate == Seed.date("2024-06-09T22:45:00Z"))
            // 9 June: the old night only, whose `.asleep` has no stage, so every figure is zero (the switch's default).
            #expect(try await reader.getSleepStages(date: Seed.date("2024-06-09T08:00:00Z")) == SleepStages())
        }
    }
}

/// The checks ``ClientPatternSleepTests/checks(_:)`` runs.
private let clientPatternSleepTestsChecks: [Check<ClientPatternSleepTests>] = [
    Check("handlerReadSleepOfLastNight", ClientPatternSleepTests.handlerReadSleepOfLastNight),
    Check("handlerReadSleepOfTheOldNight", ClientPatternSleepTests.handlerReadSleepOfTheOldNight),
    Check("handlerSleepLabels", ClientPatternSleepTests.handlerSleepLabels),
    Check("hkSampleIsHealthSampleNotSample", ClientPatternSleepTests.hkSampleIsHealthSampleNotSample),
    Check("descriptorSleepStages", ClientPatternSleepTests.descriptorSleepStages),
]
