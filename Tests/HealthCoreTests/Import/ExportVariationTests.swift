import Foundation
import Testing
import TestKit
@testable import HealthCore
import TextSupport

extension ImportTests {
    /// Real exports differ from the Health app's current form: locale digits, look-alike records, iOS 8's layout,
    /// characteristics of newer kinds (issue 23). The fixtures are in Tests/Fixtures/import (made for these tests).
    struct ExportVariationTests {
        /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
        /// build a tenth of a `@Test` apiece (README.md, "Development").
        @Test(arguments: exportVariationTestsChecks)
        func checks(_ check: Check<Self>) async throws {
            try await check.run(on: Self())
        }

        private typealias Support = ImportTestSupport

        static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Fixtures/import").path

        static func fixture(_ name: String) -> String { folder + "/" + name }

        /// Every file of a store (but its lock), by path.
        static func storeContents(_ root: String) throws -> [String: [UInt8]] {
            var files: [String: [UInt8]] = [:]
            let enumerator = FileManager.default.enumerator(atPath: root)
            while let relative = enumerator?.nextObject() as? String {
                guard relative != ".lock" else { continue }
                var isFolder: ObjCBool = false
                guard FileManager.default.fileExists(atPath: root + "/" + relative, isDirectory: &isFolder), !isFolder.boolValue else { continue }
                files[relative] = Array(try Data(contentsOf: URL(fileURLWithPath: root + "/" + relative)))
            }
            return files
        }

        /// The store's samples as jsonl lines, sorted.
        static func lines(_ store: JSONFileStore) throws -> [String] {
            try Support.withTemporaryDirectory { folder in
                let path = folder + "/out.jsonl"
                _ = try SampleExporter(store: store, timeZone: IndependentTestKit.zone("America/Los_Angeles"))
                    .export(types: nil, interval: DateInterval(start: DateRange.distantStart, end: DateRange.distantEnd), format: .jsonl,
                            exportDate: Date(timeIntervalSince1970: 1_717_243_200), to: FileDestination(path: path))
                return try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map(String.init).sorted()
            }
        }

        /// Imports `name` into a fresh store, exports it as Health XML, imports that into another fresh store, and
        /// checks both hold the same samples and characteristics; returns the first import's receipt.
        @discardableResult
        static func roundTrip(_ name: String) throws -> ImportReceipt {
            try Support.withTemporaryDirectory { folder in
                let first = JSONFileStore(path: folder + "/first")
                let receipt = try HealthImporter(store: first).importFile(atPath: fixture(name))
                #expect(!receipt.hasProblems, "\(receipt.problems)")
                let xml = folder + "/export.xml"
                _ = try SampleExporter(store: first, timeZone: IndependentTestKit.zone("Europe/Berlin"))
                    .export(types: nil, interval: DateInterval(start: DateRange.distantStart, end: DateRange.distantEnd), format: .healthxml,
                            exportDate: Date(timeIntervalSince1970: 1_717_243_200), to: FileDestination(path: xml))
                let second = JSONFileStore(path: folder + "/second")
                let again = try HealthImporter(store: second).importFile(atPath: xml)
                #expect(!again.hasProblems, "\(again.problems)")
                expectEqual(again.totals.alreadyPresent, 0)
                try expectEqual(lines(second), lines(first), "\(name): the Health XML export reads back to other samples")
                try expectEqual(first.document("characteristics.json", default: Characteristics()), second.document("characteristics.json", default: Characteristics()))
                // And importing the export into the first store adds nothing.
                let back = try HealthImporter(store: first).importFile(atPath: xml)
                expectEqual(back.totals.added + back.totals.keptGenerically, 0)
                return receipt
            }
        }

        // MARK: - Locale digits

        @Test(arguments: ["arabic-indic", "persian", "devanagari"])
        func localeDigitsImportToTheSameStoreAsASCII(script: String) throws {
            try Support.withTemporaryDirectory { folder in
                let ascii = JSONFileStore(path: folder + "/ascii")
                let asciiReceipt = try HealthImporter(store: ascii).importFile(atPath: Self.fixture("locale-digits.ascii.xml"))
                #expect(!asciiReceipt.hasProblems, "\(asciiReceipt.problems)")
                expectEqual(asciiReceipt.totals.total, 8)
                let local = JSONFileStore(path: folder + "/local")
                let receipt = try HealthImporter(store: local).importFile(atPath: Self.fixture("locale-digits.\(script).xml"))
                #expect(!receipt.hasProblems, "\(receipt.problems)")
                expectEqual(receipt.counts, asciiReceipt.counts)
                expectEqual(receipt.characteristics, asciiReceipt.characteristics)
                expectEqual(receipt.exportDate, asciiReceipt.exportDate)
                expectEqual(receipt.characteristics["date-of-birth"], "2000-02-01")
                let expected = try Self.storeContents(ascii.path)
                let actual = try Self.storeContents(local.path)
                expectEqual(actual.keys.sorted(), expected.keys.sorted())
                for (name, bytes) in expected where actual[name] != bytes {
                    Issue.record("\(script): \(name) differs:\n\(String(decoding: actual[name] ?? [], as: UTF8.self))")
                }
                // Re-importing the ASCII export into the store made from the local one adds nothing.
                let again = try HealthImporter(store: local).importFile(atPath: Self.fixture("locale-digits.ascii.xml"))
                expectEqual(again.totals.added + again.totals.keptGenerically, 0)
            }
        }

        func localeDigitsAreFoldedOnlyInNumbersAndDates() {
            expectEqual(LocalizedDigits.folded("٢٠٠٠-٠٢-٠١"), "2000-02-01")
            expectEqual(LocalizedDigits.folded("۷۲٫۴"), "72.4")
            expectEqual(LocalizedDigits.folded("१२० count/min"), "120 count/min")
            expectEqual(LocalizedDigits.folded("๑๒"), "12")
            expectEqual(LocalizedDigits.folded("၁၂"), "12")
            expectEqual(LocalizedDigits.folded("১২.৫"), "12.5")
            expectNil(LocalizedDigits.folded("72.4"), "nothing to fold")
            expectNil(LocalizedDigits.folded("شارع ١٢"), "words keep their digits")
            expectEqual(LocalizedDigits.ascii("Café ١"), "Café ١")
        }

        @Test(arguments: ["locale-digits.ascii.xml", "locale-digits.arabic-indic.xml"])
        func localeDigitsRoundTrip(name: String) throws {
            try Self.roundTrip(name)
        }

        // MARK: - Look-alike records

        func lookAlikeRecordsAreKeptOnTheFirstImportAndFoundOnTheSecond() throws {
            try Support.withTemporaryDirectory { folder in
                let store = JSONFileStore(path: folder + "/store")
                let path = Self.fixture("look-alike.xml")
                let first = try HealthImporter(store: store).importFile(atPath: path)
                #expect(!first.hasProblems, "\(first.problems)")
                expectEqual(first.totals.added + first.totals.keptGenerically, 15)
                expectEqual(first.totals.alreadyPresent, 0, "a first import into an empty store finds nothing present")
                expectEqual(first.counts["HKQuantityTypeIdentifierActiveEnergyBurned"]?.added, 5)
                expectEqual(first.counts["HKQuantityTypeIdentifierDistanceWalkingRunning"]?.added, 3)
                expectEqual(first.counts["HKCategoryTypeIdentifierSleepAnalysis"]?.added, 3)
                expectEqual(first.counts["HKQuantityTypeIdentifierSomethingNewer"]?.keptGenerically, 2)
                expectEqual(first.counts["HKWorkoutTypeIdentifier"]?.added, 2)
                let stored = try Self.lines(store)
                expectEqual(stored.count, 15)
                expectEqual(Set(stored.map { String($0.prefix(50)) }).count, 15, "every sample has its own uuid")
                var energy = 0.0
                try store.forEachSample(ofType: "HKQuantityTypeIdentifierActiveEnergyBurned",
                                        overlapping: DateInterval(start: ISODate.parse("2024-05-01T00:00:00Z")!, duration: 86_400 * 3)) {
                    energy += $0.value.quantity?.value ?? 0
                }
                expectEqual(energy, 62.5, "every look-alike counts in the sum")
                for _ in 0..<2 {
                    let again = try HealthImporter(store: store).importFile(atPath: path)
                    expectEqual(again.totals.added + again.totals.keptGenerically, 0)
                    expectEqual(again.totals.alreadyPresent, 15)
                }
                try expectEqual(Self.lines(store), stored)
            }
        }

        /// Tests/Fixtures/import/legacy-store-bb0402c is the store the build of bb0402c (whose identity left out
        /// creation dates, versions, devices and metadata) made of look-alike.xml: 5 samples, 10 records "present".
        func aStoreOfTheOlderIdentityRuleIsNotDoubledAndGetsWhatItLost() throws {
            try Support.withTemporaryDirectory { folder in
                let path = folder + "/legacy"
                try FileManager.default.copyItem(atPath: Self.fixture("legacy-store-bb0402c"), toPath: path)
                let store = JSONFileStore(path: path)
                let before = try Self.lines(store)
                expectEqual(before.count, 5)
                let first = try HealthImporter(store: store).importFile(atPath: Self.fixture("look-alike.xml"))
                expectEqual(first.totals.alreadyPresent, 5, "each stored sample is found as the record it was made of")
                expectEqual(first.totals.added + first.totals.keptGenerically, 10, "the records the older rule collapsed are added")
                let again = try HealthImporter(store: store).importFile(atPath: Self.fixture("look-alike.xml"))
                expectEqual(again.totals.added + again.totals.keptGenerically, 0)
                expectEqual(again.totals.alreadyPresent, 15)
                // The same samples, but for the uuids of the five made by the older rule, as a fresh import gives.
                let fresh = JSONFileStore(path: folder + "/fresh")
                _ = try HealthImporter(store: fresh).importFile(atPath: Self.fixture("look-alike.xml"))
                let withoutUUID = { (lines: [String]) in lines.map { String($0.dropFirst(50)) }.sorted() }
                #expect(withoutUUID(try Self.lines(store)) == withoutUUID(try Self.lines(fresh)))
                #expect(Set(try Self.lines(store)).isSuperset(of: before))
            }
        }

        func lookAlikeRecordsRoundTrip() throws {
            try Self.roundTrip("look-alike.xml")
        }

        func aLaterExportWithOneMoreRepeatAddsOnlyThatRepeat() throws {
            let record = Support.record(value: "7")
            try Support.withTemporaryDirectory { folder in
                let store = JSONFileStore(path: folder + "/store")
                let twice = try Support.write(Support.export([record, record].joined(separator: "\n")), named: "a.xml", in: folder)
                let thrice = try Support.write(Support.export([record, record, record].joined(separator: "\n")), named: "b.xml", in: folder)
                try expectEqual(HealthImporter(store: store).importFile(atPath: twice).totals.added, 2)
                let later = try HealthImporter(store: store).importFile(atPath: thrice)
                expectEqual(later.totals.added, 1)
                expectEqual(later.totals.alreadyPresent, 2)
            }
        }

        func directAndGeneralPathsGiveLookAlikesTheSameUUIDs() throws {
            try Support.withTemporaryDirectory { folder in
                let fast = JSONFileStore(path: folder + "/fast")
                let plain = JSONFileStore(path: folder + "/plain")
                let path = Self.fixture("look-alike.xml")
                _ = try HealthImporter(store: fast).importFile(atPath: path)
                _ = try HealthImporter(store: ImportEquivalenceTests.PlainPathStore(plain)).importFile(atPath: path)
                try expectEqual(Self.lines(fast), Self.lines(plain))
            }
        }

        // MARK: - iOS 8

        func iOS8ExportsImport() throws {
            let receipt = try Self.roundTrip("ios8.xml")
            expectEqual(receipt.totals.added, 7)
            expectEqual(receipt.totals.rejected, 0)
            expectEqual(receipt.counts["HKQuantityTypeIdentifierStepCount"]?.added, 3)
            expectEqual(receipt.exportDate, ExportDateParser.parse("2015-06-16 07:19:16 -0700"))
            expectEqual(receipt.characteristics["date-of-birth"], "1980-03-15")
            #expect(receipt.skippedAttributes.isEmpty, "\(receipt.skippedAttributes)")
            try Support.withTemporaryDirectory { folder in
                let store = JSONFileStore(path: folder + "/store")
                _ = try HealthImporter(store: store).importFile(atPath: Self.fixture("ios8.xml"))
                var steps: [Sample] = []
                try store.forEachSample(ofType: "HKQuantityTypeIdentifierStepCount",
                                        overlapping: DateInterval(start: ISODate.parse("2014-01-01T00:00:00Z")!, duration: 86_400 * 30)) { steps.append($0) }
                expectEqual(steps.map(\.source), ["John's iPhone", "John's iPhone", "John's iPhone"])
                expectEqual(steps.first?.start, ExportDateParser.parse("2014-01-04 08:43:00 -0800"))
                let total = steps.compactMap { $0.value.quantity?.value }.reduce(0, +)
                #expect(abs(total - 56) < 1e-9, "fractional step counts are kept")
                expectEqual(steps.first?.metadata["@recordCount"], .string("3"))
                let again = try HealthImporter(store: store).importFile(atPath: Self.fixture("ios8.xml"))
                expectEqual(again.totals.alreadyPresent, 7)
            }
        }

        // MARK: - Characteristics of newer kinds

        /// The Health app writes each value in the phone's preferred unit, so an export made after the units changed
        /// (lb to kg, mi to km, kcal to kJ, °F to °C, fl oz to mL) writes every earlier sample anew: its values, in
        /// the type's canonical unit to 12 significant digits, are the same samples (both the direct and the general
        /// reading, in either order); a value that differs is another sample.
        func theSameSamplesExportedInOtherUnitsAreTheSameRecords() throws {
            func record(_ type: String, _ value: String, _ unit: String, minute: Int) -> String {
                let time = "2024-05-02 09:\(minute < 10 ? "0" : "")\(minute):00 +0200"
                return Support.record("HKQuantityTypeIdentifier" + type, value: value, unit: unit, start: time, end: time)
            }
            let us = [record("BodyMass", "160", "lb", minute: 1), record("DistanceWalkingRunning", "1", "mi", minute: 2),
                      record("ActiveEnergyBurned", "100", "kcal", minute: 3), record("BodyTemperature", "98.6", "degF", minute: 4),
                      record("DietaryWater", "16.9", "fl_oz_us", minute: 5)]
            let metric = [record("BodyMass", "72.57477920000001", "kg", minute: 1), record("DistanceWalkingRunning", "1.609344", "km", minute: 2),
                          record("ActiveEnergyBurned", "418.4", "kJ", minute: 3), record("BodyTemperature", "37", "degC", minute: 4),
                          record("DietaryWater", "499.79264960625", "mL", minute: 5)]
            try ExportVariationTests.expectTheSameRecords(us, metric, new: record("BodyMass", "72.6", "kg", minute: 1))
        }

        /// The same samples in an export made after the phone's units changed, printed as the Health app prints them (six
        /// significant digits, so 160 lb is 72.5748 kg): a record that would be new is the stored sample whose
        /// identity without the amount is its own and whose amount is its amount as either print gives it, so the
        /// second export adds nothing, on both paths and in both orders (a review: after km → mi the distances and
        /// energies counted twice). A record whose amount differs by more is new.
        func theSameSamplesPrintedInOtherUnitsAreTheSameRecords() throws {
            func record(_ type: String, _ value: String, _ unit: String, minute: Int) -> String {
                let time = "2024-05-02 09:\(minute < 10 ? "0" : "")\(minute):00 +0200"
                return Support.record("HKQuantityTypeIdentifier" + type, value: value, unit: unit, start: time, end: time,
                                      created: "2024-05-02 09:30:07 +0200")
            }
            let us = [record("BodyMass", "160", "lb", minute: 1), record("DistanceWalkingRunning", "0.0323364", "mi", minute: 2),
                      record("ActiveEnergyBurned", "0.254", "kcal", minute: 3), record("BodyTemperature", "98.6", "degF", minute: 4),
                      record("DietaryWater", "16.9", "fl_oz_us", minute: 5), record("WalkingStepLength", "36.6142", "in", minute: 6)]
            let metric = [record("BodyMass", "72.5748", "kg", minute: 1), record("DistanceWalkingRunning", "0.0520404", "km", minute: 2),
                          record("ActiveEnergyBurned", "1.06274", "kJ", minute: 3), record("BodyTemperature", "37", "degC", minute: 4),
                          record("DietaryWater", "499.793", "mL", minute: 5), record("WalkingStepLength", "93", "cm", minute: 6)]
            try ExportVariationTests.expectTheSameRecords(us, metric, new: record("BodyMass", "72.6", "kg", minute: 1))
        }

        /// The review of the rule above (a look in other units): a temperature near 0 °C printed in °F (its print's error
        /// is absolute, far more than a hundred-thousandth of 0.09 °C), a meal's records inside its correlation (the
        /// correlation written before the top-level copies), and no look at all for amounts written in the same unit
        /// (100,000 and 100,001 steps, 100 and 100.0005 kcal, which a record before its look-alike took the place of).
        func aLookInOtherUnitsCoversTemperaturesAndMealsAndNotTheSameUnit() throws {
            func water(_ value: String, _ unit: String, minute: Int) -> String {
                let time = "2024-05-02 09:\(minute < 10 ? "0" : "")\(minute):00 +0200"
                return Support.record("HKQuantityTypeIdentifierWaterTemperature", value: value, unit: unit, start: time, end: time,
                                      created: "2024-05-02 09:30:07 +0200")
            }
            let celsius = [water("0.0912345", "degC", minute: 1), water("0.513579", "degC", minute: 2), water("-1.23456", "degC", minute: 3),
                           water("1.23456", "degC", minute: 4), water("12.3456", "degC", minute: 5)]
            let fahrenheit = [water("32.1642", "degF", minute: 1), water("32.9244", "degF", minute: 2), water("29.7778", "degF", minute: 3),
                              water("34.2222", "degF", minute: 4), water("54.2221", "degF", minute: 5)]
            try ExportVariationTests.expectTheSameRecords(celsius, fahrenheit, new: water("0.3", "degC", minute: 1))
            // A meal: its correlation first, then its records at top level, in kcal and then in kJ.
            func food(_ value: String, _ unit: String) -> String {
                Support.record("HKQuantityTypeIdentifierDietaryEnergyConsumed", value: value, unit: unit, source: "MyFitnessPal",
                               start: "2024-06-01 08:00:00 +0000", end: "2024-06-01 08:00:00 +0000", created: "2024-06-01 12:00:05 +0000")
            }
            func meal(_ value: String, _ unit: String) -> String {
                " <Correlation type=\"HKCorrelationTypeIdentifierFood\" sourceName=\"MyFitnessPal\" creationDate=\"2024-06-01 12:00:05 +0000\" "
                    + "startDate=\"2024-06-01 08:00:00 +0000\" endDate=\"2024-06-01 08:00:00 +0000\">\n" + food(value, unit) + "\n </Correlation>\n"
                    + food(value, unit)
            }
            try ExportVariationTests.onBothPaths { target, store, plain in
                _ = try Support.importXML(Support.export(meal("451.237", "kcal")), into: target)
                let again = try Support.importXML(Support.export(meal("1887.98", "kJ")), into: target)
                expectEqual(again.totals.added, 0, "plain \(plain): \(again.counts)")
            }
            // The same unit: never looked for in other units, whatever the order.
            func steps(_ value: String, minute: Int = 1) -> String {
                Support.record(value: value, start: "2024-05-02 09:0\(minute):00 +0200", end: "2024-05-02 09:0\(minute):00 +0200",
                               created: "2024-05-02 09:30:07 +0200")
            }
            let energy = { (value: String) in food(value, "kcal") }
            for (stored, export) in [([steps("100000")], [steps("100001")]), ([energy("100")], [energy("100.0005"), energy("100")]),
                                     ([energy("100")], [energy("100"), energy("100.0005")])] {
                try ExportVariationTests.onBothPaths { target, store, plain in
                    _ = try Support.importXML(Support.export(stored.joined(separator: "\n")), into: target)
                    let later = try Support.importXML(Support.export(export.joined(separator: "\n")), into: target)
                    expectEqual(later.totals.added, 1, "plain \(plain): \(export) after \(stored): \(later.counts)")
                }
            }
            // A record that took a stored sample in another unit gives it back to the sample's own record, met later in
            // the same export: both are added (one for one).
            try ExportVariationTests.onBothPaths { target, store, plain in
                _ = try Support.importXML(Support.export(energy("120.5")), into: target)
                let both = try Support.importXML(Support.export(food("504.172", "kJ") + "\n" + energy("120.5")), into: target)
                expectEqual(both.totals.added, 1, "plain \(plain): \(both.counts)")
                expectEqual(both.totals.alreadyPresent, 1, "plain \(plain): \(both.counts)")
            }
        }

        /// Runs `body` with a fresh store in a folder of its own, imported into through the direct path and through the
        /// general one (`plain`): `target` is what an import is given, `store` the store itself.
        private static func onBothPaths(_ body: (_ target: SampleStore, _ store: JSONFileStore, _ plain: Bool) throws -> Void) throws {
            try Support.withTemporaryDirectory { folder in
                for plain in [false, true] {
                    let store = JSONFileStore(path: folder + (plain ? "/plain" : "/fast"))
                    try body(plain ? ImportEquivalenceTests.PlainPathStore(store) : store, store, plain)
                }
            }
        }

        /// `a` then `b` (and `b` then `a`) into fresh stores, on the direct path and the general one: the second export
        /// adds nothing, and the record `new` is added after them.
        private static func expectTheSameRecords(_ a: [String], _ b: [String], new: String) throws {
            for (first, second) in [(a, b), (b, a)] {
                try ExportVariationTests.onBothPaths { target, store, plain in
                    let before = try Support.importXML(Support.export(first.joined(separator: "\n")), into: target)
                    expectEqual(before.totals.added, first.count, "plain \(plain): \(before.counts)")
                    let after = try Support.importXML(Support.export(second.joined(separator: "\n")), into: target)
                    expectEqual(after.totals.added, 0, "plain \(plain): \(after.counts)")
                    expectEqual(after.totals.alreadyPresent, second.count, "plain \(plain): \(after.counts)")
                    let other = try Support.importXML(Support.export(new), into: target)
                    expectEqual(other.totals.added, 1, "plain \(plain): \(other.counts)")
                }
            }
        }

        /// Records that differ only in their amounts (two foods a nutrition app logged at once) stay apart whatever
        /// the order and number of them an export holds: the store holding one, an export of both adds the other, and
        /// two meals' members stay each meal's own (a review of a rule that left amounts out of the identity: the
        /// second meal took the first one's members, and 350 kcal was stored twice while 120 was lost).
        func recordsThatDifferOnlyInTheirAmountsStayApart() throws {
            func food(_ type: String, _ value: String, _ unit: String) -> String {
                Support.record("HKQuantityTypeIdentifier" + type, value: value, unit: unit, source: "MyFitnessPal",
                               start: "2024-06-01 08:00:00 +0000", end: "2024-06-01 08:00:00 +0000", metadata: [("meal", "Breakfast")],
                               created: "2024-06-01 12:00:05 +0000")
            }
            let small = food("DietaryEnergyConsumed", "120", "kcal"), large = food("DietaryEnergyConsumed", "350", "kcal")
            try ExportVariationTests.onBothPaths { target, store, plain in
                _ = try Support.importXML(Support.export(large), into: target)
                let both = try Support.importXML(Support.export(small + "\n" + large), into: target)
                expectEqual(both.totals.added, 1, "plain \(plain): \(both.counts)")
                let everything = DateInterval(start: DateRange.distantStart, end: DateRange.distantEnd)
                let values = try store.samples(ofType: "HKQuantityTypeIdentifierDietaryEnergyConsumed", overlapping: everything)
                    .compactMap { $0.value.quantity?.value }.sorted()
                expectEqual(values, [120, 350], "plain \(plain)")
            }
            try Support.withTemporaryDirectory { folder in
                // Two meals at once, their members written inside and at top level, as the Health app writes them.
                let meal = { (energy: String, protein: String) in
                    " <Correlation type=\"HKCorrelationTypeIdentifierFood\" sourceName=\"MyFitnessPal\" creationDate=\"2024-06-01 12:00:05 +0000\" "
                        + "startDate=\"2024-06-01 08:00:00 +0000\" endDate=\"2024-06-01 08:00:00 +0000\">\n" + food("DietaryEnergyConsumed", energy, "kcal")
                        + "\n" + food("DietaryProtein", protein, "g") + "\n </Correlation>"
                }
                let meals = [food("DietaryEnergyConsumed", "120", "kcal"), food("DietaryProtein", "4", "g"), food("DietaryEnergyConsumed", "350", "kcal"),
                             food("DietaryProtein", "12", "g"), meal("120", "4"), meal("350", "12")].joined(separator: "\n")
                let store = JSONFileStore(path: folder + "/meals")
                _ = try Support.importXML(Support.export(meals), into: store)
                let everything = DateInterval(start: DateRange.distantStart, end: DateRange.distantEnd)
                let members = try store.samples(ofType: "HKQuantityTypeIdentifierDietaryEnergyConsumed", overlapping: everything)
                    + store.samples(ofType: "HKQuantityTypeIdentifierDietaryProtein", overlapping: everything)
                let amounts = Dictionary(uniqueKeysWithValues: members.map { ($0.uuid, $0.value.quantity?.value ?? -1) })
                let correlations = try store.samples(ofType: "HKCorrelationTypeIdentifierFood", overlapping: everything)
                expectEqual(correlations.count, 2)
                let held = correlations.map { correlation in
                    (correlation.detail?.correlation?.members ?? []).compactMap { amounts[$0.uuid] }.sorted()
                }.sorted { $0.first ?? 0 < $1.first ?? 0 }
                expectEqual(held, [[4, 120], [12, 350]])
            }
        }

        /// A sample corrected (``Sample/markAsCorrection(of:catalogue:)``) stays corrected when its export is imported
        /// again, also when the corrected sample was stored under another uuid than its record's identity gives now
        /// (an older build's rule, 160 lb then meant other bytes: a review found the old value back beside the
        /// correction).
        func aCorrectionOfASampleStoredUnderAnotherUUIDOutlivesAReimport() throws {
            let export = Support.export(Support.record("HKQuantityTypeIdentifierBodyMass", value: "160", unit: "lb"))
            try Support.withTemporaryDirectory { folder in
                let scratch = JSONFileStore(path: folder + "/scratch"), store = JSONFileStore(path: folder + "/store")
                _ = try Support.importXML(export, into: scratch)
                let everything = DateInterval(start: DateRange.distantStart, end: DateRange.distantEnd)
                var original = try #require(try scratch.samples(ofType: "HKQuantityTypeIdentifierBodyMass", overlapping: everything).first)
                original.uuid = UUID()
                try store.save([original])
                var corrected = original
                corrected.uuid = UUID()
                corrected.value = .quantity(Quantity(161, try HealthUnit(parsing: "lb")))
                corrected.markAsCorrection(of: original)
                try store.replace([original.uuid], with: [corrected], now: Date())
                let again = try Support.importXML(export, into: store)
                expectEqual(again.totals.added, 0, "\(again.counts)")
                let values = try store.samples(ofType: "HKQuantityTypeIdentifierBodyMass", overlapping: everything)
                    .compactMap { $0.value.quantity?.value }
                expectEqual(values, [161])
            }
        }

        /// A correction of one of two twins, in a store where the other twin now has the first twin's uuid (a store
        /// rebuilt from its Health XML export): the export of both twins adds nothing (a review: the corrected twin
        /// came back, its correction hidden by the other twin's uuid).
        func aCorrectedTwinIsNotHiddenByTheOtherTwin() throws {
            let record = Support.record("HKQuantityTypeIdentifierDietaryWater", value: "250", unit: "mL")
            let export = Support.export(record + "\n" + record)
            try Support.withTemporaryDirectory { folder in
                let scratch = JSONFileStore(path: folder + "/scratch"), store = JSONFileStore(path: folder + "/store")
                _ = try Support.importXML(Support.export(record), into: scratch)
                let everything = DateInterval(start: DateRange.distantStart, end: DateRange.distantEnd)
                let twin = try #require(try scratch.samples(ofType: "HKQuantityTypeIdentifierDietaryWater", overlapping: everything).first)
                var corrected = twin
                corrected.uuid = UUID()
                corrected.value = .quantity(Quantity(200, try HealthUnit(parsing: "mL")))
                corrected.markAsCorrection(of: twin)
                try store.save([twin, corrected])
                let again = try Support.importXML(export, into: store)
                expectEqual(again.totals.added, 0, "\(again.counts)")
            }
        }

        /// iOS 16 moved a workout's totals from its attributes into `WorkoutStatistics` children, and exports write
        /// an element's dates with the offset of the day they are made: the same workout, clinical record or vision
        /// prescription from an export before and one after (in either order) is found, not stored twice. A workout
        /// that differs in its times or activity is another workout.
        func anElementExportedInALaterFormIsTheSameElement() throws {
            let times = "sourceName=\"Jane’s Apple Watch\" sourceVersion=\"8.5\" creationDate=\"2022-05-01 18:31:00 +0200\" "
                + "startDate=\"2022-05-01 18:00:00 +0200\" endDate=\"2022-05-01 18:30:00 +0200\""
            let span = "startDate=\"2022-05-01 18:00:00 +0200\" endDate=\"2022-05-01 18:30:00 +0200\""
            let old = " <Workout workoutActivityType=\"HKWorkoutActivityTypeRunning\" duration=\"30\" durationUnit=\"min\" "
                + "totalDistance=\"5.01\" totalDistanceUnit=\"km\" totalEnergyBurned=\"320\" totalEnergyBurnedUnit=\"kcal\" \(times)/>"
            let new = " <Workout workoutActivityType=\"HKWorkoutActivityTypeRunning\" duration=\"30\" durationUnit=\"min\" \(times)>\n"
                + "  <WorkoutStatistics type=\"HKQuantityTypeIdentifierActiveEnergyBurned\" \(span) sum=\"320\" unit=\"kcal\"/>\n"
                + "  <WorkoutStatistics type=\"HKQuantityTypeIdentifierDistanceWalkingRunning\" \(span) sum=\"5.01\" unit=\"km\"/>\n"
                + " </Workout>"
            let cycling = new.replacingOccurrences(of: "Running", with: "Cycling")
            func clinical(_ received: String) -> String {
                " <ClinicalRecord type=\"HKClinicalTypeIdentifierLabResultRecord\" identifier=\"obs-1\" sourceName=\"Hospital\" "
                    + "sourceURL=\"https://fhir.example/Observation/1\" fhirVersion=\"4.0.1\" receivedDate=\"\(received)\" "
                    + "resourceFilePath=\"/clinical-records/Observation-1.json\"/>"
            }
            func vision(_ issued: String) -> String {
                " <VisionPrescription type=\"glasses\" dateIssued=\"\(issued)\" sourceName=\"Optician\"/>"
            }
            for (first, second) in [(old, new), (new, old)] {
                try Support.withTemporaryDirectory { folder in
                    let store = JSONFileStore(path: folder + "/store", timeZone: IndependentTestKit.zone("Europe/Berlin"))
                    let before = try Support.importXML(Support.export(first + "\n" + clinical("2024-05-01 10:00:00 +0200")
                                                                      + "\n" + vision("2024-05-01 10:00:00 +0200")), into: store)
                    expectEqual(before.totals.added + before.totals.keptGenerically, 3, "\(before.counts)")
                    let after = try Support.importXML(Support.export(second + "\n" + clinical("2024-05-01 09:00:00 +0100")
                                                                     + "\n" + vision("2024-05-01 09:00:00 +0100")), into: store)
                    expectEqual(after.totals.added, 0, "\(after.counts)")
                    expectEqual(after.totals.keptGenerically, 0, "\(after.counts)")
                    expectEqual(after.totals.alreadyPresent, 3, "\(after.counts)")
                    let other = try Support.importXML(Support.export(cycling), into: store)
                    expectEqual(other.totals.added, 1, "\(other.counts)")
                }
            }
        }

        func characteristicsOfUnknownKindsAreKeptAndExportedBack() throws {
            let receipt = try Self.roundTrip("me-generic.xml")
            expectEqual(receipt.characteristics["HKCharacteristicTypeIdentifierCardioFitnessMedicationsUse"], "HKCardioFitnessMedicationsUseOptionBetaBlocker")
            #expect(receipt.skippedAttributes.isEmpty, "\(receipt.skippedAttributes)")
            try Support.withTemporaryDirectory { folder in
                let store = JSONFileStore(path: folder + "/store")
                _ = try HealthImporter(store: store).importFile(atPath: Self.fixture("me-generic.xml"))
                let me = try store.document("characteristics.json", default: Characteristics())
                expectEqual(me.generic, ["HKCharacteristicTypeIdentifierCardioFitnessMedicationsUse": "HKCardioFitnessMedicationsUseOptionBetaBlocker",
                                         "HKCharacteristicTypeIdentifierActivityMoveMode": "HKActivityMoveModeActiveEnergy"])
                expectEqual(me.bloodType, .oNegative)
                var kept: [Sample] = []
                try store.forEachSample(ofType: "HKExportElementStateOfMindSample",
                                        overlapping: DateInterval(start: DateRange.distantStart, end: DateRange.distantEnd)) { kept.append($0) }
                expectEqual(kept.first?.start, ExportDateParser.parse("2025-01-09 21:00:00 -0800"))
                expectEqual(kept.first?.metadata["@valence"], .string("0.4"))
                let xml = folder + "/export.xml"
                _ = try SampleExporter(store: store).export(types: nil, interval: DateInterval(start: DateRange.distantStart, end: DateRange.distantEnd),
                                                            format: .healthxml, exportDate: Date(timeIntervalSince1970: 1_717_243_200),
                                                            to: FileDestination(path: xml))
                let text = try String(contentsOfFile: xml, encoding: .utf8)
                #expect(text.contains(" HKCharacteristicTypeIdentifierCardioFitnessMedicationsUse=\"HKCardioFitnessMedicationsUseOptionBetaBlocker\""))
                #expect(text.contains(" HKCharacteristicTypeIdentifierActivityMoveMode=\"HKActivityMoveModeActiveEnergy\""))
            }
        }
    }
}

/// The checks ``ImportTests.ExportVariationTests/checks(_:)`` runs.
private let exportVariationTestsChecks: [Check<ImportTests.ExportVariationTests>] = [
    Check("localeDigitsAreFoldedOnlyInNumbersAndDates",
          ImportTests.ExportVariationTests.localeDigitsAreFoldedOnlyInNumbersAndDates),
    Check("lookAlikeRecordsAreKeptOnTheFirstImportAndFoundOnTheSecond",
          ImportTests.ExportVariationTests.lookAlikeRecordsAreKeptOnTheFirstImportAndFoundOnTheSecond),
    Check("aStoreOfTheOlderIdentityRuleIsNotDoubledAndGetsWhatItLost",
          ImportTests.ExportVariationTests.aStoreOfTheOlderIdentityRuleIsNotDoubledAndGetsWhatItLost),
    Check("lookAlikeRecordsRoundTrip", ImportTests.ExportVariationTests.lookAlikeRecordsRoundTrip),
    Check("aLaterExportWithOneMoreRepeatAddsOnlyThatRepeat",
          ImportTests.ExportVariationTests.aLaterExportWithOneMoreRepeatAddsOnlyThatRepeat),
    Check("directAndGeneralPathsGiveLookAlikesTheSameUUIDs",
          ImportTests.ExportVariationTests.directAndGeneralPathsGiveLookAlikesTheSameUUIDs),
    Check("iOS8ExportsImport", ImportTests.ExportVariationTests.iOS8ExportsImport),
    Check("theSameSamplesExportedInOtherUnitsAreTheSameRecords",
          ImportTests.ExportVariationTests.theSameSamplesExportedInOtherUnitsAreTheSameRecords),
    Check("recordsThatDifferOnlyInTheirAmountsStayApart", ImportTests.ExportVariationTests.recordsThatDifferOnlyInTheirAmountsStayApart),
    Check("theSameSamplesPrintedInOtherUnitsAreTheSameRecords",
          ImportTests.ExportVariationTests.theSameSamplesPrintedInOtherUnitsAreTheSameRecords),
    Check("aLookInOtherUnitsCoversTemperaturesAndMealsAndNotTheSameUnit",
          ImportTests.ExportVariationTests.aLookInOtherUnitsCoversTemperaturesAndMealsAndNotTheSameUnit),
    Check("aCorrectionOfASampleStoredUnderAnotherUUIDOutlivesAReimport",
          ImportTests.ExportVariationTests.aCorrectionOfASampleStoredUnderAnotherUUIDOutlivesAReimport),
    Check("aCorrectedTwinIsNotHiddenByTheOtherTwin", ImportTests.ExportVariationTests.aCorrectedTwinIsNotHiddenByTheOtherTwin),
    Check("anElementExportedInALaterFormIsTheSameElement", ImportTests.ExportVariationTests.anElementExportedInALaterFormIsTheSameElement),
    Check("characteristicsOfUnknownKindsAreKeptAndExportedBack",
          ImportTests.ExportVariationTests.characteristicsOfUnknownKindsAreKeptAndExportedBack),
]
