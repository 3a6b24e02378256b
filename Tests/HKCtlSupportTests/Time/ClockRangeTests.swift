import Foundation
import HealthCore
@testable import HKCtlSupport
import Testing

/// Sleep ranges typed as `TIME-TIME`, with any time on either side of the dash.
struct ClockRangeTests {
    private typealias Kit = IndependentTestKit

    private func context(_ now: Date) -> TimeContext { TimeContext(now: now, timeZone: Kit.zone("UTC")) }

    @Test(arguments: [
        ("23:10-07:05", Kit.utc(2024, 5, 31, 23, 10), Kit.utc(2024, 6, 1, 7, 5)),
        ("yesterday 22:30-06:45", Kit.utc(2024, 5, 31, 22, 30), Kit.utc(2024, 6, 1, 6, 45)),
        ("2024-05-28T22:40-2024-05-29T06:10", Kit.utc(2024, 5, 28, 22, 40), Kit.utc(2024, 5, 29, 6, 10)),
        ("23:00-2024-05-29T06:10", Kit.utc(2024, 5, 28, 23, 0), Kit.utc(2024, 5, 29, 6, 10)),
        ("2024-05-28 22:00-05:30", Kit.utc(2024, 5, 28, 22, 0), Kit.utc(2024, 5, 29, 5, 30)),
    ])
    func anyTimeOnEitherSideOfTheDash(text: String, start: Date, end: Date) throws {
        #expect(ClockRange.looksLikeRange(text))
        let interval = try ClockRange.parse(text, in: context(Kit.utc(2024, 6, 1, 12)))
        #expect(interval.start == start && interval.end == end, "\(text): \(interval)")
    }
}
