import Foundation
import Testing
@testable import HealthCore
import TestKit

/// Sleep counted by the night everywhere: the range names wake-up mornings, totals are the sums of those nights,
/// day-or-longer buckets hold whole nights; sleep ranges typed as `TIME-TIME` with any time; advice on odd entries.
struct SleepByNightTests {
    /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
    /// build a tenth of a `@Test` apiece (README.md, "Development").
    @Test(arguments: sleepByNightTestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    private typealias Kit = IndependentTestKit
    private let sleep = try! SampleTypeCatalogue.standard.type(named: "sleep")

    private func at(_ day: Int, _ hour: Int, _ minute: Int = 0) -> Date { Kit.utc(2024, 5, day, hour, minute) }

    private var calendar: GregorianCalendar { GregorianCalendar(timeZone: Kit.zone("UTC")) }

    /// Four nights (May 27–30 mornings) across midnight, a nap, and an in-bed sample on one night only.
    private var week: [Sample] {
        [Kit.sleep(1, at(26, 23, 10), at(27, 7, 5)),                 // 7 h 55: night of 05-27
         Kit.sleep(3, at(27, 22, 0), at(28, 6, 30)),                 // 8 h 30: night of 05-28
         Kit.sleep(0, at(27, 21, 45), at(28, 6, 45)),                // in bed 9 h: night of 05-28
         Kit.sleep(1, at(28, 14, 0), at(28, 14, 40)),                // nap 40 min: night of 05-29 (after noon)
         Kit.sleep(4, at(29, 1, 0), at(29, 5, 0)),                   // 4 h: night of 05-29
         Kit.sleep(5, at(29, 23, 30), at(30, 6, 0))]                 // 6 h 30: night of 05-30
    }

    private func nights(from: Date, to: Date) throws -> [SleepNight] {
        try SleepNightsQuery(interval: DateInterval(start: from, end: to)).run(on: InMemorySampleStore(week), calendar: calendar)
    }

    func theTotalOfARangeIsTheSumOfItsNights() throws {
        for (from, to) in [(27, 28), (27, 31), (28, 30), (29, 30), (25, 33)] {
            let interval = DateInterval(start: at(from, 0), end: at(to, 0))
            let result = try StatisticsRequest(type: sleep, interval: interval).runByNight(on: InMemorySampleStore(week), calendar: calendar)
            let listed = try nights(from: interval.start, to: interval.end)
            expectEqual(result.total.asleep, listed.map(\.asleep).sum, "\(from)–\(to)")
            let inBed = listed.compactMap(\.inBed)
            expectEqual(result.total.inBed, (inBed.isEmpty ? nil : inBed.sum), "\(from)–\(to)")
        }
        // One morning: the night that ends on it, whole (not cut at midnight).
        let one = try StatisticsRequest(type: sleep, interval: DateInterval(start: at(27, 0), end: at(28, 0)))
            .runByNight(on: InMemorySampleStore(week), calendar: calendar)
        expectEqual(one.total.asleep, Double(7 * 3600 + 55 * 60))
        #expect(one.total.start == at(26, 12) && one.total.end == at(27, 12))
        expectNil(one.total.inBed, "no in-bed sample that night")
        // The clock's answer for the same day, for contrast: 00:00–07:05 of one night and 22:00–24:00 of the next.
        let clipped = try StatisticsRequest(type: sleep, interval: DateInterval(start: at(27, 0), end: at(28, 0)))
            .run(on: InMemorySampleStore(week), calendar: calendar)
        expectEqual(clipped.total.asleep, Double(7 * 3600 + 5 * 60 + 2 * 3600))
    }

    /// The totals and the nights from one read are what the two queries give when each reads the store: random
    /// sleep of three sources written out of order, with deletions, over ranges, cut-offs, predicates, priorities,
    /// with and without merging, through the store and through a source that sees only its own samples.
    func totalsAndNightsFromOneReadAreThoseOfTwoReads() throws {
        var random = Kit.SeededGenerator(seed: 77)
        try TestSupport.withTemporaryDirectory { folder in
            let storage = JSONFileStore(path: folder + "/store", timeZone: Kit.zone("UTC"))
            var samples: [Sample] = []
            for _ in 0..<160 {
                let start = at(1, 0).addingTimeInterval(Double(Int.random(in: 0..<(20 * 24 * 12), using: &random)) * 300)
                let length = Double(Int.random(in: 1...(10 * 12), using: &random)) * 300
                samples.append(Kit.sleep([0, 1, 2, 3, 4, 5].randomElement(using: &random)!, start, start.addingTimeInterval(length),
                                         source: ["Jane’s Apple Watch", "Sleep App", "hkctl"].randomElement(using: &random)!))
            }
            samples.shuffle(using: &random)
            try storage.save(Array(samples.prefix(80)))
            try storage.save(Array(samples.dropFirst(80)))
            _ = try storage.delete(uuids: [samples[3].uuid, samples[40].uuid], now: at(28, 0))
            let app = try HealthStore(storage: storage, source: "Sleep App")
            let stores: [(String, SampleStore)] = [("store", storage), ("one source", app)]
            let ranges = [(3, 4), (2, 9), (1, 21), (10, 11), (25, 27)]
            for (label, store) in stores {
                for (from, to) in ranges {
                    for cutoff in [NightCutoff.noon, try NightCutoff(hour: 18)] {
                        for (merging, predicate, priority) in [
                            (true, SamplePredicate(), SourcePriority.automatic),
                            (false, SamplePredicate(), .automatic),
                            (true, SamplePredicate(sources: ["Sleep App", "hkctl"]), try SourcePriority(["hkctl"])),
                        ] {
                            let query = StatisticsRequest(type: sleep, interval: DateInterval(start: at(from, 0), end: at(to, 0)),
                                                          predicate: predicate, priority: priority, mergesSources: merging)
                            let both = try query.runByNightListingNights(on: store, calendar: calendar, cutoff: cutoff)
                            let context = "\(label) \(from)–\(to) merging \(merging) \(predicate.sources ?? [])"
                            try expectEqual(both.result, query.runByNight(on: store, calendar: calendar, cutoff: cutoff), "\(context)")
                            let nights = try SleepNightsQuery(interval: query.interval, cutoff: cutoff, predicate: predicate,
                                                              priority: priority, mergesSources: merging).run(on: store, calendar: calendar)
                            expectEqual(both.nights, nights, "\(context)")
                            expectEqual(both.nights.count, to - from, "\(context): a night per morning")
                        }
                    }
                }
            }
            // Nights were found at all, and the one source sees less than the store.
            let query = StatisticsRequest(type: sleep, interval: DateInterval(start: at(1, 0), end: at(21, 0)))
            let all = try query.runByNightListingNights(on: storage, calendar: calendar)
            let own = try query.runByNightListingNights(on: app, calendar: calendar)
            #expect(all.nights.filter { $0.sampleCount > 0 }.count > 10)
            #expect(own.result.total.sampleCount < all.result.total.sampleCount)
        }
    }

    /// A line in the sleep folder whose `type` names another type still counts where the store hands it over: the
    /// one read serves it to both queries as the store would.
    func aLineOfAnotherTypeInTheFolderCountsAsInTwoReads() throws {
        try TestSupport.withTemporaryDirectory { folder in
            let storage = JSONFileStore(path: folder + "/store", timeZone: Kit.zone("UTC"))
            try storage.save([Kit.sleep(1, at(26, 23, 10), at(27, 7, 5)), Kit.sleep(3, at(28, 1, 0), at(28, 3, 0))])
            let interval = DateInterval(start: at(26, 0), end: at(30, 0))
            let file = folder + "/store/" + (try #require(try storage.partitions(ofType: sleep.identifier, overlapping: interval).first))
            let edited = #"{"uuid":"00000000-0000-4000-8000-000000000001","type":"HKCategoryTypeIdentifierMindfulSession","#
                + #""start":"2024-05-29T01:00:00Z","end":"2024-05-29T03:00:00Z","value":3,"source":"Oura","created":"2024-05-29T03:00:00Z"}"#
            let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: file))
            try handle.seekToEnd()
            try handle.write(contentsOf: Data((edited + "\n").utf8))
            try handle.close()
            let query = StatisticsRequest(type: sleep, interval: interval)
            let both = try query.runByNightListingNights(on: storage, calendar: calendar)
            let alone = try query.runByNight(on: storage, calendar: calendar)
            let nights = try SleepNightsQuery(interval: interval).run(on: storage, calendar: calendar)
            expectEqual(both.result, alone)
            expectEqual(both.nights, nights)
            expectEqual(alone.total.sampleCount, 3, "the store hands the edited line over")
        }
    }

    func dayAndWeekBucketsHoldWholeNights() throws {
        let interval = DateInterval(start: at(26, 0), end: at(31, 0))
        let byDay = try StatisticsRequest(type: sleep, interval: interval, bucketUnit: .day)
            .runByNight(on: InMemorySampleStore(week), calendar: calendar)
        let listed = try nights(from: interval.start, to: interval.end)
        expectEqual(byDay.buckets.map(\.asleep), listed.map { Optional($0.asleep) })
        expectEqual(byDay.buckets.map(\.end), listed.map(\.end))
        expectEqual(byDay.buckets.compactMap(\.asleep).sum, byDay.total.asleep)
        // Week buckets (Monday 05-27): the night of Sunday 05-26 is last week's, the rest this week's.
        var mondays = calendar
        mondays.firstWeekday = 2
        let byWeek = try StatisticsRequest(type: sleep, interval: interval, bucketUnit: .week)
            .runByNight(on: InMemorySampleStore(week), calendar: mondays)
        expectEqual(byWeek.buckets.count, 2)
        expectEqual(byWeek.buckets[0].asleep, 0)
        expectEqual(byWeek.buckets[1].asleep, byDay.total.asleep)
        // Hours cannot hold nights: they stay on the clock.
        let byHour = try StatisticsRequest(type: sleep, interval: DateInterval(start: at(27, 0), end: at(28, 0)), bucketUnit: .hour)
            .runByNight(on: InMemorySampleStore(week), calendar: calendar)
        #expect(byHour.buckets.count == 24 && byHour.total.start == at(27, 0))
    }

    func aNightWithoutAnInBedSampleHasUnknownInBedAndEfficiency() throws {
        let listed = try nights(from: at(27, 0), to: at(29, 0))
        #expect(listed[0].inBed == nil && listed[0].efficiency == nil)
        expectEqual(listed[1].inBed, Double(9 * 3600))
        #expect(Kit.isClose(listed[1].efficiency!, 8.5 / 9))
    }
}

/// The checks ``SleepByNightTests/checks(_:)`` runs.
private let sleepByNightTestsChecks: [Check<SleepByNightTests>] = [
    Check("theTotalOfARangeIsTheSumOfItsNights", SleepByNightTests.theTotalOfARangeIsTheSumOfItsNights),
    Check("totalsAndNightsFromOneReadAreThoseOfTwoReads", SleepByNightTests.totalsAndNightsFromOneReadAreThoseOfTwoReads),
    Check("aLineOfAnotherTypeInTheFolderCountsAsInTwoReads", SleepByNightTests.aLineOfAnotherTypeInTheFolderCountsAsInTwoReads),
    Check("dayAndWeekBucketsHoldWholeNights", SleepByNightTests.dayAndWeekBucketsHoldWholeNights),
    Check("aNightWithoutAnInBedSampleHasUnknownInBedAndEfficiency",
          SleepByNightTests.aNightWithoutAnInBedSampleHasUnknownInBedAndEfficiency),
]
