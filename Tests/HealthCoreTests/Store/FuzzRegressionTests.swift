import Foundation
import Testing
import TestKit
@testable import HealthCore

/// Inputs the fuzzers found that crashed hkctl; each must now be refused with an error.
struct FuzzRegressionTests {
    /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
    /// build a tenth of a `@Test` apiece (README.md, "Development").
    @Test(arguments: fuzzRegressionTestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    /// fuzz/run storeline: a change number too large for UInt64 (37e76) trapped in the conversion.
    @Test(arguments: [
        "{\"uuid\":\"c870d14d-90fb-4277-8398-61fd8dfe863f\",\"type\":\"HKQuantityTypeIdentifierDietaryWater\",\"start\":\"2024-06-01T08:00:00+02:00\",\"end\":\"2024-06-01T08:00:00+02:00\",\"value\":0.5,\"unit\":\"L\",\"source\":\"hkctl\",\"seq\":37e76}",
        "{\"uuid\":\"c870d14d-90fb-4277-8398-61fd8dfe863f\",\"type\":\"HKQuantityTypeIdentifierDietaryWater\",\"start\":\"2024-06-01T08:00:00+02:00\",\"end\":\"2024-06-01T08:00:00+02:00\",\"value\":0.5,\"unit\":\"L\",\"source\":\"hkctl\",\"seq\":-1}",
        "{\"uuid\":\"4d0f86ff-b79d-4ade-a517-27264f7e7620\",\"type\":\"HKCategoryTypeIdentifierFoo\",\"start\":\"2024-05-31T23:10:00+02:00\",\"end\":\"2024-06-01T07:05:00+02:00\",\"value\":1e300,\"source\":\"Watch\"}",
    ])
    func hugeNumbersInAStoreLineAreRefused(_ line: String) {
        var codec = SampleLineCodec(catalogue: .standard, timeZone: .gmt)
        let bytes = Array(line.utf8)
        let checked = bytes.withUnsafeBufferPointer { StoreLineReader.checkSampleLine($0, codec: &codec) }
        expectNil(checked.sample)
        #expect(checked.failure != nil)
    }

    func theCrashingFuzzInputIsReadWithoutTrapping() {
        let input = "{\"uuid~uidd\":\"c870d20+02:00\",\"seq\":37e76ucuucu20\",\"t}uid\u{1}}\n{\"seq\":37e7620,\"type\":\"HKCategoryTypeIdentifierFoo\"}\n"
        var codec = SampleLineCodec(catalogue: .standard, timeZone: .gmt)
        var failures = 0
        let bytes = Array(input.utf8)
        bytes.withUnsafeBufferPointer { buffer in
            StoreLineReader.forEachLine(in: buffer) { line in
                if StoreLineReader.checkSampleLine(UnsafeBufferPointer(rebasing: buffer[line.range]), codec: &codec).failure != nil { failures += 1 }
            }
        }
        expectEqual(failures, 2)
    }

    /// The unit fuzzer found `10^1`, whose canonical spelling was a bare `10`, which is not a unit.
    @Test(arguments: ["10^1", "count*10^1", "count/10^1", "10^1·m", "10^3"])
    func scaleFactorsKeepTheirPowerWhenSpelled(text: String) throws {
        let unit = try HealthUnit(parsing: text)
        let again = try HealthUnit(parsing: unit.unitString)
        #expect(again.isCompatible(with: unit))
        try expectEqual(again.convert(1, to: unit), 1)
    }

    /// The unit fuzzer found 200 `(` in a row overflowing the stack of the recursive unit parser; a unit attribute
    /// of an export could hold as many. Nesting is limited, and refused with one message, however deep.
    @Test(arguments: [33, 200, 100_000])
    func deeplyNestedParenthesesAreRefused(depth: Int) {
        let text = String(repeating: "(", count: depth) + "count" + String(repeating: ")", count: depth)
        #expect(throws: UnitError.malformed(text, reason: "parentheses are nested more than 32 deep")) {
            try HealthUnit(parsing: text)
        }
        let unclosed = String(repeating: "(", count: depth)
        #expect(throws: UnitError.self) { try HealthUnit(parsing: unclosed) }
    }

    func parenthesesNestedWithinTheLimitStillParse() throws {
        let text = "count/" + String(repeating: "(", count: 32) + "min" + String(repeating: ")", count: 32)
        #expect(try HealthUnit(parsing: text).isCompatible(with: HealthUnit(parsing: "count/min")))
    }

    /// The same class in the store's JSON reader: a line whose unknown field nests arrays or objects thousands deep
    /// is refused as damaged, without exhausting the stack; 64 levels still read.
    @Test(arguments: [("[", "]"), ("{\"a\":", "}")])
    func deeplyNestedJSONInALineIsRefused(open: String, close: String) {
        func line(depth: Int) -> String {
            "{\"uuid\":\"c870d14d-90fb-4277-8398-61fd8dfe863f\",\"type\":\"HKQuantityTypeIdentifierDietaryWater\","
                + "\"start\":\"2024-06-01T08:00:00+02:00\",\"end\":\"2024-06-01T08:00:00+02:00\",\"value\":0.5,\"unit\":\"L\","
                + "\"source\":\"hkctl\",\"future\":" + String(repeating: open, count: depth) + "1"
                + String(repeating: close, count: depth) + "}"
        }
        func check(_ text: String) -> (sample: Sample?, sequence: UInt64, failure: String?) {
            var codec = SampleLineCodec(catalogue: .standard, timeZone: .gmt)
            return Array(text.utf8).withUnsafeBufferPointer { StoreLineReader.checkSampleLine($0, codec: &codec) }
        }
        #expect(check(line(depth: 64)).sample != nil)
        let deep = check(line(depth: 200_000))
        expectNil(deep.sample)
        expectEqual(deep.failure?.contains("nested more than 64 deep"), true, "\(deep.failure ?? "")")
    }

    /// An import's kept children (`@children`, JSON nested as deep as the element was) are read back by the Health
    /// XML export; nesting deeper than an export can hold is refused there instead of exhausting the stack.
    func deeplyNestedKeptChildrenAreRefused() throws {
        func nested(_ depth: Int) -> String {
            String(repeating: "[{\"name\":\"A\",\"children\":", count: depth) + "[]" + String(repeating: "}]", count: depth)
        }
        try expectEqual(ExportNode.nodes(fromJSON: nested(60)).count, 1)
        #expect(throws: JSONLineScanner.Failure.self) { try ExportNode.nodes(fromJSON: nested(100_000)) }
    }
}

/// The checks ``FuzzRegressionTests/checks(_:)`` runs.
private let fuzzRegressionTestsChecks: [Check<FuzzRegressionTests>] = [
    Check("theCrashingFuzzInputIsReadWithoutTrapping", FuzzRegressionTests.theCrashingFuzzInputIsReadWithoutTrapping),
    Check("parenthesesNestedWithinTheLimitStillParse", FuzzRegressionTests.parenthesesNestedWithinTheLimitStillParse),
    Check("deeplyNestedKeptChildrenAreRefused", FuzzRegressionTests.deeplyNestedKeptChildrenAreRefused),
]
