// Fuzz target: the time parser (dates, times of day, relative times, ranges) and the store's date reader.
import Foundation


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
