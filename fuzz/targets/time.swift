// Fuzz target: the time parser (dates, times of day, relative times, ranges) and the store's date reader.
import Foundation
#if !HKCTL_FUZZ_ONE_MODULE
// The test suite's smoke (fuzz/smoke) compiles this harness in a test target of its own; `fuzz/run` compiles it
// inside HealthCore's module (-D HKCTL_FUZZ_ONE_MODULE), where these modules are the module itself.
@testable import HealthCore
import HKCtlSupport
#endif


/// Paris from the system's zone database (hkctl's own TZif rules), read once; UTC where the database is missing.
let paris = ZoneDatabase.system(environment: [:]).zone(named: "Europe/Paris") ?? .gmt

func fuzzTime(_ data: UnsafeRawPointer, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeRawBufferPointer(start: data, count: size), as: UTF8.self)
    let context = TimeContext(now: Date(timeIntervalSince1970: 1_717_243_200), timeZone: paris)
    _ = try? TimeExpression.parse(text, in: context)
    _ = ISODate.parse(text)
    _ = try? ClockRange.parse(text, in: context)
    return 0
}
