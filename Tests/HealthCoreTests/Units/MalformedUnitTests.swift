import Foundation
import Testing
import TestKit
@testable import HealthCore

/// Unit strings the grammar must refuse (fact sheet §3.1), with the kind of error each gives.
struct MalformedUnitTests {
    /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
    /// build a tenth of a `@Test` apiece (README.md, "Development").
    @Test(arguments: malformedUnitTestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    /// Strings that break the grammar itself: `UnitError.malformed` carrying the whole string.
    static let malformed: [String] = [
        "",              // nothing at all
        "kg/",           // '/' with no denominator
        "/kg",           // '/' with no numerator
        "(kg",           // unclosed parenthesis
        "kg)",           // stray closing parenthesis
        "((kg)",         // one of two parentheses unclosed
        "()",            // empty group
        "kg(m)",         // a group glued to a unit without an operator
        "kg/(m",         // unclosed group in the denominator
        "m^",            // power without exponent
        "m^x",           // non-numeric exponent
        "m^-",           // sign without digits
        "m^0",           // zero power
        "m^-0",          // zero power, signed
        "m^12345",       // absurd exponent (more than four digits)
        "m^2^2",         // chained powers
        "^2",            // power of nothing
        "kg//m",         // empty term between two slashes
        "m/s/kg",        // two '/' at one level
        "kg/m/s",        // two '/' at one level
        "kg.",           // trailing product operator
        ".kg",           // leading product operator
        "kg*",           // trailing product operator
        "*kg",           // leading product operator
        "kg**m",         // empty factor
        "mol<abc>",      // molar mass not a number
        "mol<180",       // molar mass not closed
        "mmol<180.16/L", // molar mass not closed before the denominator
        "mol<180>x",     // text after the molar mass
        "mol<>",         // empty molar mass
        "mol<0>",        // molar mass must be positive
        "mol<-180>",     // molar mass must be positive
        "mol<inf>",      // molar mass must be finite
        "mol<nan>",      // molar mass must be a number
        "degC/s",        // temperature with an offset inside a compound
        "degF*kg",       // temperature with an offset inside a compound
        "degC^2",        // temperature with an offset raised to a power
        "degC\u{00B7}degC",
        "dBASPL^2",      // logarithmic unit raised to a power
        "dBHL/s",        // logarithmic unit inside a compound
        "10",            // a bare 10 is not a unit
        "10^-3",         // scale factor needs a positive power
        "10^0",          // scale factor needs a positive power
        " kg",           // spaces are refused
        "kg ",
        "k g",
        "\tkg",
        "kg\n",
        "500 mL",        // an amount is not a unit
    ]

    /// Well-formed strings naming no unit: `UnitError.unknownUnit` with the offending term.
    static let unknown: [(input: String, term: String)] = [
        ("kgs", "kgs"),            // plural is not a symbol (QuantityInput accepts it as an alias)
        ("a/b/c", "a"),            // the first unknown term is reported before the second '/'
        ("KG", "KG"), ("Kg", "Kg"), // symbols are case-sensitive
        ("mol", "mol"),            // moles need a molar mass
        ("mmol", "mmol"),
        ("kCal", "kCal"),          // Cal takes no prefix
        ("mcal", "mcal"),          // cal takes no prefix
        ("klb", "klb"),            // imperial units take no prefix
        ("kmin", "kmin"),
        ("dd", "dd"),              // the day takes no prefix
        ("h", "h"),                // a prefix alone
        ("da", "da"),
        ("1/s", "1"),
        ("\u{00B5}", "\u{00B5}"),  // micro sign alone
        ("foo", "foo"),
        ("fl_oz", "fl_oz"),
        ("cup", "cup"),
        ("lbs", "lbs"),
        ("bpm", "bpm"),
        ("\u{00B0}C", "\u{00B0}C"),
        ("degc", "degc"),
        ("kg>", "kg>"),
        ("kg,m", "kg,m"),
        ("kg/foo", "foo"),
    ]

    func listsAreLargeEnough() {
        #expect(MalformedUnitTests.malformed.count + MalformedUnitTests.unknown.count >= 30)
    }

    @Test(arguments: MalformedUnitTests.malformed)
    func grammarErrorsAreMalformed(text: String) {
        let error = #expect(throws: UnitError.self) { try HealthUnit(parsing: text) }
        guard case let .malformed(payload, reason)? = error else {
            Issue.record("'\(text)' gave \(String(describing: error)), expected .malformed")
            return
        }
        expectEqual(payload, text)
        #expect(!reason.isEmpty)
        expectNil(HealthUnit.parse(text))
    }

    @Test(arguments: MalformedUnitTests.unknown)
    func unknownSymbolsAreUnknownUnits(input: String, term: String) {
        #expect(throws: UnitError.unknownUnit(term)) { try HealthUnit(parsing: input) }
        expectNil(HealthUnit.parse(input))
    }

    func spacesAreRefusedWithAReason() {
        let error = #expect(throws: UnitError.self) { try HealthUnit(parsing: "m L") }
        guard case let .malformed(_, reason)? = error else {
            Issue.record("expected .malformed, got \(String(describing: error))")
            return
        }
        #expect(reason.contains("space"))
    }

    func onlyOneSlashIsAllowedButParenthesesGroupTheDenominator() throws {
        #expect(throws: UnitError.self) { try HealthUnit(parsing: "mL/kg/min") }
        try expectEqual(HealthUnit(parsing: "mL/(kg*min)").unitString, "mL/min·kg")
    }

    func errorDescriptionQuotesTheText() {
        #expect(UnitError.malformed("kg/", reason: "it ends where a unit was expected").description.contains("'kg/'"))
        #expect(UnitError.unknownUnit("kgs").description.contains("'kgs'"))
    }
}

/// The checks ``MalformedUnitTests/checks(_:)`` runs.
private let malformedUnitTestsChecks: [Check<MalformedUnitTests>] = [
    Check("listsAreLargeEnough", MalformedUnitTests.listsAreLargeEnough),
    Check("spacesAreRefusedWithAReason", MalformedUnitTests.spacesAreRefusedWithAReason),
    Check("onlyOneSlashIsAllowedButParenthesesGroupTheDenominator",
          MalformedUnitTests.onlyOneSlashIsAllowedButParenthesesGroupTheDenominator),
    Check("errorDescriptionQuotesTheText", MalformedUnitTests.errorDescriptionQuotesTheText),
]
