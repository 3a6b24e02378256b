import Foundation
import HealthCore
import Testing
import TestKit

// Seed 004_8b367f0cbfcbd31e.txt: "HealthKit (8)", the Step Tracker app adding data and handling errors.
//
// The note changes an app built in earlier posts (its `HealthKitManager`, `HealthMetric`, the queries behind
// `stepsQuery`/`weightQuery`, the fetch functions it calls but does not show). Those parts are written here as setup
// (outside the `//>>` fences), after the note's descriptions. Left out as SwiftUI only, with nothing of HealthKit:
// lines 27-32 (`#Preview`), 51-57 (the `List` rows), 324-328 (`.sheet`), 407-420 (`.navigationTitle`,
// `.navigationDestination`, `.sheet`, `.alert`), 484-486 (`.navigationDestination`), 519-529 (`.navigationTitle`,
// `.alert`, `.toolbar`/`ToolbarItem`/`Button`/`Task` wrappers) and 551-561 (the alert's Settings button, which opens
// `UIApplication.openSettingsURLString`). The views' `@State`/`@Binding` properties become properties of plain
// classes standing for the views, and their button and `.task` bodies become methods, which the tests call.
enum Seed004 {
    struct HealthMetric: Identifiable {
        let id = UUID()
        let date: Date
        let value: Double
    }

    enum HealthMetricContext { case steps, weight }

    /// The app's queries (earlier posts): the 28 days up to the end of today, one bucket a day.
    static func query(_ type: QuantityTypeIdentifier, _ options: StatisticsOptions) -> StatisticsCollectionQueryDescriptor {
        let endDate = Seed.calendar.date(byAdding: .day, value: 1, to: Seed.calendar.startOfDay(for: Seed.now))!
        let startDate = Seed.calendar.date(byAdding: .day, value: -28, to: endDate)!
        return StatisticsCollectionQueryDescriptor(
            predicate: .quantitySample(type: QuantityType(type), predicate: Query.predicateForSamples(withStart: startDate, end: endDate)),
            options: options, anchorDate: endDate, intervalComponents: DateComponents(day: 1))
    }

    // Seed 004, lines 215-219: the first STError (lines 241-246 add `sharingDenied`; 354-382 make it a LocalizedError).
    enum First {
        //>> STError(215-219)
        enum STError: Error {
            case authNotDetermined
            case noData
            case unableToCompleteRequest
        }
        //<<
    }

    /// The manager before error handling (lines 77-99, 140-148, 157-170).
    @MainActor final class FirstHealthKitManager {
        let store: HealthStore
        var stepData: [HealthMetric] = []
        var weightData: [HealthMetric] = []
        var weightDiffData: [HealthMetric] = []
        init(_ store: HealthStore) { self.store = store }

        // Seed 004, lines 77-99.
        //>> addStepData+addWeightData(77-99)
        func addStepData(for date: Date, value: Double) async {
            let stepQuantity = Quantity(unit: .count(), doubleValue: value)
            let stepSample = QuantitySample(
                type: QuantityType(.stepCount),
                quantity: stepQuantity,
                start: date,
                end: date
            )
            try! await store.save(stepSample)
        }
        func addWeightData(for date: Date, value: Double) async {
            let weightQuantity = Quantity(unit: .pound(), doubleValue: value)
            let weightSample = QuantitySample(
                type: QuantityType(.bodyMass),
                quantity: weightQuantity,
                start: date,
                end: date
            )
            try! await store.save(weightSample)
        }
        //<<

        func fetchStepCount() async {
            let stepsQuery = Seed004.query(.stepCount, .cumulativeSum)
            // Seed 004, lines 157-170 (HKError → HealthError).
            //>> stepsErrorHandling(157-170)
            // example
            do {
                let stepsCounts = try await stepsQuery.result(for: store)
                stepData = stepsCounts.statistics().map({
                    .init(date: $0.startDate, value: $0.sumQuantity()?.doubleValue(for: .count()) ?? 0)
                })
            } catch HealthError.errorDataSizeExceeded { // new
            } catch HealthError.errorDatabaseInaccessible { // new
            } catch {
            }
            //<<
        }

        func fetchWeights() async {
            let weights = try? await Seed004.query(.bodyMass, .mostRecent).result(for: store)
            weightData = weights?.statistics().map { .init(date: $0.startDate, value: $0.mostRecentQuantity()?.doubleValue(for: .pound()) ?? 0) } ?? []
        }

        func fetchWeightsForDifferentials() async {
            let weightQuery = Seed004.query(.bodyMass, .mostRecent)
            // Seed 004, lines 140-148.
            //>> weightsDo(140-148)
            do {
                let weights = try await weightQuery.result(for: store)
                weightDiffData = weights.statistics().map({
                    .init(date: $0.startDate, value: $0.mostRecentQuantity()?.doubleValue(for: .pound()) ?? 0)
                })
            } catch {
            }
            //<<
        }
    }

    /// HealthDataListView before error handling: lines 43-45 and 107-122.
    @MainActor final class FirstHealthDataListView {
        let hkManager: FirstHealthKitManager
        let metric: HealthMetricContext
        var addDataDate = Seed.date("2024-06-10T09:30:00Z")
        var valueToAdd = ""
        var isShowingAddData = true
        init(_ hkManager: FirstHealthKitManager, metric: HealthMetricContext) { (self.hkManager, self.metric) = (hkManager, metric) }

        // Seed 004, lines 43-45.
        //>> listData(43-45)
        var listData: [HealthMetric] {
            metric == .steps ? hkManager.stepData : hkManager.weightData
        }
        //<<

        /// The "Add Data" button's action; `ToolbarItem(placement:)`, `Button("Add Data")` and `Task {` (lines
        /// 107-109, with their closing braces 120-122) are SwiftUI and left out.
        func addData() async {
            // Seed 004, lines 107-122.
            //>> ToolbarItem(107-122)
            if metric == .steps {
                await hkManager.addStepData(for: addDataDate, value: Double(valueToAdd)!)
                await hkManager.fetchStepCount()
                isShowingAddData = false
            } else {
                await hkManager.addWeightData(for: addDataDate, value: Double(valueToAdd)!)
                await hkManager.fetchWeights()
                await hkManager.fetchWeightsForDifferentials()
                isShowingAddData = false
            }
            //<<
        }
    }

    // Seed 004, lines 241-246 with 354-382 (the same enum, made a LocalizedError; its `// 중략` is the cases).
    //>> STError(241-246+354-382)
    enum STError: LocalizedError {
        case authNotDetermined
        case sharingDenied(quantityType: String) // new
        case noData
        case unableToCompleteRequest
        var errorDescription: String? {
            switch self {
            case .authNotDetermined:
                "Need Access to Health Data"
            case .sharingDenied(_):
                "No Write Access"
            case .noData:
                "No Data"
            case .unableToCompleteRequest:
                "Unable to Complete Request"
            }
        }
        var failureReason: String {
            switch self {
            case .authNotDetermined:
                "You have not given access to your Health data. Please go to Settings > Health > Data Access & Devices."
            case .sharingDenied(let quantityType):
                "You have denied access to upload your \(quantityType) data.\n\nYou can change this in Settings > Health > Data Access & Devices."
            case .noData:
                "There is no data for this Health statistic."
            case .unableToCompleteRequest:
                "We are unable to complete your request at this time.\n\nPlease try again later or contact support."
            }
        }
    }
    //<<

    /// The manager with error handling (lines 188-206, 229-231, 248-270).
    @MainActor class HealthKitManager {
        let store: HealthStore
        var stepData: [HealthMetric] = []
        var weightData: [HealthMetric] = []
        var weightDiffData: [HealthMetric] = []
        init(_ store: HealthStore) { self.store = store }
        var stepsQuery: StatisticsCollectionQueryDescriptor { Seed004.query(.stepCount, .cumulativeSum) }

        // Seed 004, lines 188-206.
        //>> fetchStepCount(188-206)
        func fetchStepCount() async throws { // modfied → throws added
            guard store.authorizationStatus(for: QuantityType(.stepCount)) != .notDetermined else {
                throw STError.authNotDetermined
            }
            // 중략
            do {
                let stepsCounts = try await stepsQuery.result(for: store)
                stepData = stepsCounts.statistics().map({
                    .init(date: $0.startDate, value: $0.sumQuantity()?.doubleValue(for: .count()) ?? 0)
                })
            } catch HealthError.errorNoData { // new
                throw STError.noData
            } catch {
                throw STError.unableToCompleteRequest
            }
        }
        //<<

        /// Not shown in the note ("나머지 fetch 함수도 수정"): the weight fetches, each opening with lines 229-231.
        func fetchWeights() async throws {
            // Seed 004, lines 229-231.
            //>> bodyMassGuard(229-231)
            guard store.authorizationStatus(for: QuantityType(.bodyMass)) != .notDetermined else { 
                        throw STError.authNotDetermined
                    }
            //<<
            do {
                let weights = try await Seed004.query(.bodyMass, .mostRecent).result(for: store)
                weightData = weights.statistics().map { .init(date: $0.startDate, value: $0.mostRecentQuantity()?.doubleValue(for: .pound()) ?? 0) }
            } catch HealthError.errorNoData {
                throw STError.noData
            } catch {
                throw STError.unableToCompleteRequest
            }
        }

        func fetchWeightsForDifferentials() async throws {
            try await fetchWeights()
            weightDiffData = weightData
        }

        // Seed 004, lines 248-270. `@unknown default: break` (lines 259-260) is dropped: `AuthorizationStatus` is a
        // Swift enum of a module built without library evolution, so the compiler warns that it can never run. The
        // sample made under `// 중략` is lines 78-84's.
        //>> addStepData(248-270)
        func addStepData(for date: Date, value: Double) async throws {
            let status = store.authorizationStatus(for: QuantityType(.stepCount))
            switch status {
            case .notDetermined:
                throw STError.authNotDetermined
            case .sharingDenied:
                throw STError.sharingDenied(quantityType: "step count")
            case .sharingAuthorized:
                break
            }
            // 중략
        //<<
            let stepSample = QuantitySample(type: QuantityType(.stepCount), quantity: Quantity(unit: .count(), doubleValue: value),
                                            start: date, end: date)
        //>> addStepData(248-270)
            do { // new
                try await store.save(stepSample) // modified → ! deleted
            } catch {
                throw STError.unableToCompleteRequest
            }
            }
        //<<
    }

    /// The test version of lines 432-435: a manager whose step fetch fails at once. `override` is added: the note
    /// edits the function in place.
    final class NoDataHealthKitManager: HealthKitManager {
        //>> fetchStepCountThrows(432-435)
        override func fetchStepCount() async throws {
                throw STError.noData
                // 후략
        }
        //<<
    }

    /// DashboardView's state and its `.task` (lines 296-306, 388-406).
    @MainActor final class DashboardView {
        let hkManager: HealthKitManager
        var isShowingPermissionPrimingSheet = false
        init(_ hkManager: HealthKitManager) { self.hkManager = hkManager }
        //>> dashboardState(388-389)
        var isShowingAlert = false
        var fetchError: STError = .noData
        //<<

        func firstTask() async {
            // Seed 004, lines 296-306.
            //>> dashboardDo(296-306)
            do {
                try await hkManager.fetchStepCount()
                try await hkManager.fetchWeights()
                try await hkManager.fetchWeightsForDifferentials()
            } catch STError.authNotDetermined {
            } catch STError.noData {
            } catch {
            }
            //<<
        }

        /// `.task { ... }` (lines 391-406); lines 320-322 are the same `catch STError.authNotDetermined` as 396-397.
        func task() async {
            //>> dashboardTask(391-406)
            do {
                try await hkManager.fetchStepCount()
                try await hkManager.fetchWeights()
                try await hkManager.fetchWeightsForDifferentials()
            } catch STError.authNotDetermined {
                isShowingPermissionPrimingSheet = true
            } catch STError.noData { // modified
                fetchError = .noData
                isShowingAlert = true
            } catch { // modified
                fetchError = .unableToCompleteRequest
                isShowingAlert = true
            }
            //<<
        }
    }

    /// HealthDataListView's state with error handling (lines 452-462, 474-476, 516-544).
    @MainActor final class HealthDataListView {
        let hkManager: HealthKitManager
        let metric: HealthMetricContext
        var addDataDate = Seed.date("2024-06-10T09:30:00Z")
        var valueToAdd = ""
        var isShowingAddData = true
        var isShowingPermissionPriming = false       // `@Binding` (line 469)
        init(_ hkManager: HealthKitManager, metric: HealthMetricContext) { (self.hkManager, self.metric) = (hkManager, metric) }
        //>> listState(516-517)
        var isShowingAlert = false
        var writeError: STError = .noData
        //<<

        func firstAddData() async {
            // Seed 004, lines 452-462. `sharingDenied(let quantity)` with an empty body is `sharingDenied(_)`: the
            // unused binding is a compiler warning.
            //>> listDo(452-462)
            do {
                try await hkManager.addStepData(for: addDataDate, value: Double(valueToAdd)!)
                try await hkManager.fetchStepCount()
                isShowingAddData = false
            } catch STError.authNotDetermined {
            } catch STError.sharingDenied(_) {
            } catch {
            }
            //<<
        }

        /// The "Add Data" button (lines 528-544; the note stops inside the `if`, closed here); lines 474-476 are
        /// the same catch as 535-536.
        func addData() async {
            //>> addDataButton(516-544)
            if metric == .steps {
                do {
                    try await hkManager.addStepData(for: addDataDate, value: Double(valueToAdd)!)
                    try await hkManager.fetchStepCount()
                    isShowingAddData = false
                } catch STError.authNotDetermined {
                    isShowingPermissionPriming = true
                } catch STError.sharingDenied(let quantityType) { // modified
                    writeError = .sharingDenied(quantityType: quantityType)
                    isShowingAlert = true
                } catch { // modified
                    writeError = .unableToCompleteRequest
                    isShowingAlert = true
                }
            }
            //<<
        }
    }

    /// The chart maths of earlier posts; its loop is lines 496-500, with the guard of line 507.
    static func averageDailyWeightDiffs(for weights: [HealthMetric]) -> [(date: Date, value: Double)] {
        var diffValues: [(date: Date, value: Double)] = []
        guard weights.count > 1 else { return [] }
        //>> weightDiffLoop(496-500)
        for i in 1 ..< weights.count { // here
                    let date = weights[i].date
                    let diff = weights[i].value - weights[i-1].value
                    diffValues.append((date: date, value: diff))
                }
        //<<
        return diffValues
    }
}

private typealias FirstHealthKitManager = Seed004.FirstHealthKitManager
private typealias FirstHealthDataListView = Seed004.FirstHealthDataListView
private typealias First = Seed004.First
private typealias STError = Seed004.STError
private typealias HealthKitManager = Seed004.HealthKitManager
private typealias NoDataHealthKitManager = Seed004.NoDataHealthKitManager
private typealias DashboardView = Seed004.DashboardView
private typealias HealthDataListView = Seed004.HealthDataListView

struct Seed004StepTrackerErrorHandlingTests {
    /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
    /// build a tenth of a `@Test` apiece (README.md, "Development").
    @Test(arguments: seed004StepTrackerErrorHandlingTestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    private static let app = "org.example.step-tracker"
    private static let day = 86_400.0
    private static func day(_ text: String) -> Date { Seed.date(text + "T00:00:00Z") }


    /// Steps: 8 June 4,000, 9 June 6,500; weights (lb): 7 June 180.5, 8 June 181.25, 10 June 180 at 07:00 and
    /// 179.5 at 11:00 (the most recent of the day).
    @MainActor private static func saveHistory(_ manager: FirstHealthKitManager) async {
        await manager.addStepData(for: Seed.date("2024-06-08T10:00:00Z"), value: 4_000)
        await manager.addStepData(for: Seed.date("2024-06-09T10:00:00Z"), value: 6_500)
        await manager.addWeightData(for: Seed.date("2024-06-07T07:00:00Z"), value: 180.5)
        await manager.addWeightData(for: Seed.date("2024-06-08T07:00:00Z"), value: 181.25)
        await manager.addWeightData(for: Seed.date("2024-06-10T07:00:00Z"), value: 180)
        await manager.addWeightData(for: Seed.date("2024-06-10T11:00:00Z"), value: 179.5)
    }

    @Test @MainActor func addStepDataAndAddWeightData() async throws {
        try await Seed.withFolder { path in
            let manager = FirstHealthKitManager(try HealthStore(directory: path, clock: { Seed.now }))
            await Self.saveHistory(manager)
            let steps = try await SampleQueryDescriptor(predicates: [.quantitySample(type: QuantityType(.stepCount))]).result(for: manager.store)
            #expect(steps.map { $0.quantity.doubleValue(for: .count()) } == [4_000, 6_500])
            #expect(steps.allSatisfy { $0.startDate == $0.endDate })
            let weights = try await SampleQueryDescriptor(predicates: [.quantitySample(type: QuantityType(.bodyMass))]).result(for: manager.store)
            #expect(weights.map { $0.quantity.doubleValue(for: .pound()) } == [180.5, 181.25, 180, 179.5])
        }
    }

    @Test @MainActor func stepsErrorHandlingAndWeightsDo() async throws {
        try await Seed.withFolder { path in
            let manager = FirstHealthKitManager(try HealthStore(directory: path, clock: { Seed.now }))
            // No data yet: the collection is empty (no error), so both lists are empty.
            await manager.fetchStepCount()
            await manager.fetchWeightsForDifferentials()
            #expect(manager.stepData.isEmpty && manager.weightDiffData.isEmpty)
            await Self.saveHistory(manager)
            await manager.fetchStepCount()
            await manager.fetchWeightsForDifferentials()
            // statistics() lists only the days with data.
            #expect(manager.stepData.map(\.date) == [Self.day("2024-06-08"), Self.day("2024-06-09")])
            #expect(manager.stepData.map(\.value) == [4_000, 6_500])
            #expect(manager.weightDiffData.map(\.date) == [Self.day("2024-06-07"), Self.day("2024-06-08"), Self.day("2024-06-10")])
            #expect(manager.weightDiffData.map(\.value) == [180.5, 181.25, 179.5])
        }
    }

    @Test @MainActor func listDataAndToolbarItem() async throws {
        try await Seed.withFolder { path in
            let manager = FirstHealthKitManager(try HealthStore(directory: path, clock: { Seed.now }))
            await Self.saveHistory(manager)
            let steps = FirstHealthDataListView(manager, metric: .steps)
            steps.valueToAdd = "1234"
            await steps.addData()
            // 8 June 4,000, 9 June 6,500, today 1,234 (added at 09:30); the sheet closes.
            #expect(steps.listData.map(\.value) == [4_000, 6_500, 1_234])
            #expect(!steps.isShowingAddData)
            let weight = FirstHealthDataListView(manager, metric: .weight)
            weight.valueToAdd = "178.75"
            weight.addDataDate = Seed.date("2024-06-09T07:00:00Z")
            await weight.addData()
            // The weights by day, most recent of each: 180.5, 181.25, 178.75 (new, 9 June), 179.5.
            #expect(weight.listData.map(\.value) == [180.5, 181.25, 178.75, 179.5])
            #expect(manager.weightDiffData.map(\.value) == [180.5, 181.25, 178.75, 179.5])
            #expect(!weight.isShowingAddData)
        }
    }

    func firstSTError() {
        let errors: [First.STError] = [.authNotDetermined, .noData, .unableToCompleteRequest]
        #expect(errors.map { "\($0)" } == ["authNotDetermined", "noData", "unableToCompleteRequest"])
    }

    func localizedSTError() {
        let denied = STError.sharingDenied(quantityType: "step count")
        #expect(denied.errorDescription == "No Write Access")
        #expect(denied.failureReason == "You have denied access to upload your step count data.\n\nYou can change this in Settings > Health > Data Access & Devices.")
        #expect(STError.noData.localizedDescription == "No Data")
        #expect(STError.authNotDetermined.failureReason.hasPrefix("You have not given access to your Health data."))
        #expect(STError.unableToCompleteRequest.errorDescription == "Unable to Complete Request")
    }

    @Test @MainActor func fetchStepCountAndBodyMassGuard() async throws {
        try await Seed.withFolder { path in
            let owner = try HealthStore(directory: path, clock: { Seed.now })
            await Self.saveHistory(FirstHealthKitManager(owner))
            let manager = HealthKitManager(try HealthStore(directory: path, source: Self.app, clock: { Seed.now }))
            // Never asked: both guards throw authNotDetermined.
            await #expect(throws: STError.self) { try await manager.fetchStepCount() }
            do {
                try await manager.fetchWeights()
                Issue.record("no error")
            } catch STError.authNotDetermined {
            }
            // The owner lets the app write and read both types: the fetches see everything.
            try owner.decideAuthorization(for: Self.app, allow: true, share: [QuantityType(.stepCount), QuantityType(.bodyMass)],
                                          read: [QuantityType(.stepCount), QuantityType(.bodyMass)])
            try await manager.fetchStepCount()
            try await manager.fetchWeights()
            #expect(manager.stepData.map(\.value) == [4_000, 6_500])
            #expect(manager.weightData.map(\.value) == [180.5, 181.25, 179.5])
            // With no sample of the type in range the collection is empty: no errorNoData, so no STError.noData.
            let empty = HealthKitManager(try HealthStore(directory: path + "-empty", clock: { Seed.now }))
            try await empty.fetchStepCount()
            #expect(empty.stepData.isEmpty)
        }
    }

    @Test @MainActor func addStepDataWithErrorHandling() async throws {
        try await Seed.withFolder { path in
            let owner = try HealthStore(directory: path, clock: { Seed.now })
            let manager = HealthKitManager(try HealthStore(directory: path, source: Self.app, clock: { Seed.now }))
            let morning = Seed.date("2024-06-10T09:00:00Z")
            do {
                try await manager.addStepData(for: morning, value: 100)
                Issue.record("no error")
            } catch STError.authNotDetermined {
            }
            try owner.decideAuthorization(for: Self.app, allow: false, share: [QuantityType(.stepCount)], read: [])
            do {
                try await manager.addStepData(for: morning, value: 100)
                Issue.record("no error")
            } catch STError.sharingDenied(let quantityType) {
                #expect(quantityType == "step count")
            }
            try owner.decideAuthorization(for: Self.app, allow: true, share: [QuantityType(.stepCount)], read: [])
            try await manager.addStepData(for: morning, value: 100)
            // A value the store refuses (a negative count) is unableToCompleteRequest; a sample after the store's
            // clock is not refused, as HealthKit stores one.
            do {
                try await manager.addStepData(for: morning, value: -100)
                Issue.record("no error")
            } catch STError.unableToCompleteRequest {
            }
            let saved = try await SampleQueryDescriptor(predicates: [.quantitySample(type: QuantityType(.stepCount))]).result(for: owner)
            #expect(saved.map { $0.quantity.doubleValue(for: .count()) } == [100])
            #expect(saved.map(\.sourceName) == [Self.app])
        }
    }

    @Test @MainActor func dashboardTask() async throws {
        try await Seed.withStores(app: Self.app) { owner, app in
            await Self.saveHistory(FirstHealthKitManager(owner))
            // Not asked yet: the first form swallows every error and fetches nothing; the final form shows the
            // priming sheet.
            let dashboard = DashboardView(HealthKitManager(app))
            await dashboard.firstTask()
            #expect(dashboard.hkManager.stepData.isEmpty && !dashboard.isShowingPermissionPrimingSheet)
            await dashboard.task()
            #expect(dashboard.isShowingPermissionPrimingSheet && !dashboard.isShowingAlert)
            // Allowed: everything is fetched, no alert.
            try owner.decideAuthorization(for: Self.app, allow: true, share: [QuantityType(.stepCount), QuantityType(.bodyMass)],
                                          read: [QuantityType(.stepCount), QuantityType(.bodyMass)])
            let allowed = DashboardView(HealthKitManager(app))
            await allowed.firstTask()
            #expect(allowed.hkManager.stepData.map(\.value) == [4_000, 6_500])
            await allowed.task()
            #expect(!allowed.isShowingAlert && !allowed.isShowingPermissionPrimingSheet)
            #expect(allowed.hkManager.weightDiffData.map(\.value) == [180.5, 181.25, 179.5])
            // Lines 432-435: a step fetch that throws noData makes the alert say "No Data".
            let failing = DashboardView(NoDataHealthKitManager(app))
            await failing.task()
            #expect(failing.isShowingAlert && failing.fetchError.errorDescription == "No Data")
            #expect(failing.fetchError.failureReason == "There is no data for this Health statistic.")
        }
    }

    @Test @MainActor func healthDataListViewAddData() async throws {
        try await Seed.withStores(app: Self.app) { owner, app in
            let manager = HealthKitManager(app)
            // First form: errors are swallowed; the sheet stays open.
            let first = HealthDataListView(manager, metric: .steps)
            first.valueToAdd = "300"
            await first.firstAddData()
            #expect(first.isShowingAddData && !first.isShowingAlert)
            // Final form, not asked: the priming sheet.
            let list = HealthDataListView(manager, metric: .steps)
            list.valueToAdd = "300"
            await list.addData()
            #expect(list.isShowingPermissionPriming && !list.isShowingAlert)
            // Denied: the alert says "No Write Access".
            try owner.decideAuthorization(for: Self.app, allow: false, share: [QuantityType(.stepCount)], read: [])
            let denied = HealthDataListView(manager, metric: .steps)
            denied.valueToAdd = "300"
            await denied.addData()
            #expect(denied.isShowingAlert && denied.writeError.errorDescription == "No Write Access")
            #expect(denied.writeError.failureReason.hasPrefix("You have denied access to upload your step count data."))
            // Allowed to write and read: saved, fetched (today 300), sheet closed.
            try owner.decideAuthorization(for: Self.app, allow: true, share: [QuantityType(.stepCount)], read: [QuantityType(.stepCount)])
            let allowed = HealthDataListView(manager, metric: .steps)
            allowed.valueToAdd = "300"
            await allowed.addData()
            #expect(!allowed.isShowingAddData && !allowed.isShowingAlert)
            #expect(manager.stepData.map(\.date) == [Self.day("2024-06-10")] && manager.stepData.map(\.value) == [300])
            // A value the store refuses (a negative step count): unableToCompleteRequest. (A sample after now is
            // stored, as HealthKit stores one.)
            let negative = HealthDataListView(manager, metric: .steps)
            negative.valueToAdd = "-300"
            await negative.addData()
            #expect(negative.isShowingAlert && negative.writeError.errorDescription == "Unable to Complete Request")
        }
    }

    func weightDiffLoop() {
        let weights = [180.5, 181.25, 179.5].enumerated().map {
            Seed004.HealthMetric(date: Self.day("2024-06-07").addingTimeInterval(Double($0.offset) * Self.day), value: $0.element)
        }
        // 181.25 − 180.5 = 0.75 on 8 June; 179.5 − 181.25 = −1.75 on 9 June.
        let diffs = Seed004.averageDailyWeightDiffs(for: weights)
        #expect(diffs.map(\.value) == [0.75, -1.75])
        #expect(diffs.map(\.date) == [Self.day("2024-06-08"), Self.day("2024-06-09")])
        // Line 507's guard: no data, or one weight, gives no difference instead of a range error.
        #expect(Seed004.averageDailyWeightDiffs(for: []).isEmpty)
        #expect(Seed004.averageDailyWeightDiffs(for: Array(weights.prefix(1))).isEmpty)
    }
}

/// The checks ``Seed004StepTrackerErrorHandlingTests/checks(_:)`` runs.
private let seed004StepTrackerErrorHandlingTestsChecks: [Check<Seed004StepTrackerErrorHandlingTests>] = [
    Check("firstSTError", Seed004StepTrackerErrorHandlingTests.firstSTError),
    Check("localizedSTError", Seed004StepTrackerErrorHandlingTests.localizedSTError),
    Check("weightDiffLoop", Seed004StepTrackerErrorHandlingTests.weightDiffLoop),
]
