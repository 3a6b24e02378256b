import Testing
import HealthCore

/// The library's words for a time it cannot read name the forms it reads (ISO 8601), not a command line's.
struct TimeInputErrorTests {
    @Test func aMalformedTimeNamesTheISOFormsTheLibraryReads() {
        let message = TimeInputError.malformed("8h30").description
        #expect(message.contains("'8h30'") && message.contains("ISO 8601") && message.contains("'2024-06-01T08:30'"))
        #expect(!message.contains("yesterday") && !message.contains("-2h"), "relative times are hkctl's syntax: \(message)")
        #expect(throws: TimeInputError.malformed("8h30")) { try ISODate.components("8h30") }
    }
}
