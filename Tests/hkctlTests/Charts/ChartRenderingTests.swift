import Foundation
import Testing
import TestKit
import HealthCore
@testable import HKCtlCommands
import TextSupport

/// Terminal charts and the dashboard: snapshots at fixed widths, and properties at every width.
struct ChartRenderingTests {
    /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
    /// build a tenth of a `@Test` apiece (README.md, "Development").
    @Test(arguments: chartRenderingTestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    @Test(arguments: [(80, true), (40, false)])
    func snapshotsAtFixedWidths(width: Int, unicode: Bool) throws {
        for (name, lines) in try ChartFixtures.all(TerminalStyle(width: width, unicode: unicode, colour: false)) {
            Snapshot.check(lines.joined(separator: "\n") + "\n", named: "\(name)-\(width)\(unicode ? "" : "-ascii")")
        }
    }

    func colourSnapshot() throws {
        let lines = try ChartFixtures.all(TerminalStyle(width: 60, colour: true))
        Snapshot.check(lines[0].1.joined(separator: "\n") + "\n", named: "steps-60-colour")
    }

    @Test(arguments: [40, 50, 60, 80, 100, 160])
    func noLineIsWiderThanTheStyle(width: Int) throws {
        for unicode in [true, false] {
            for (name, lines) in try ChartFixtures.all(TerminalStyle(width: width, unicode: unicode)) {
                for line in lines {
                    #expect(line.count <= width, "\(name) at \(width): '\(line)' is \(line.count) wide")
                }
                if !unicode {
                    #expect(lines.allSatisfy { $0.unicodeScalars.allSatisfy(\.isASCII) }, "\(name) --ascii has non-ASCII: \(lines)")
                }
            }
        }
    }

    func colourAddsOnlyEscapes() throws {
        let plain = try ChartFixtures.all(TerminalStyle(width: 80, colour: false))
        let coloured = try ChartFixtures.all(TerminalStyle(width: 80, colour: true))
        for (index, (name, lines)) in plain.enumerated() {
            #expect(!lines.joined().contains("\u{1B}"), "\(name) has escapes without colour")
            #expect(coloured[index].1.joined().contains("\u{1B}["), "\(name) has no colour")
            expectEqual(coloured[index].1.map(\.withoutEscapes), lines, "\(name): colour changed the text")
        }
    }

    func barsReachingTheGoalAreGreenAndTheGoalIsMarkedOnShortOnes() throws {
        let series = try ChartFixtures.series(.steps, goal: Quantity(10_000, .count()))
        let lines = BarChart(series: series, calendar: ChartFixtures.calendar).render(style: TerminalStyle(width: 80, colour: true))
        let row = { (label: String) in lines.first { $0.withoutEscapes.hasPrefix(label) } ?? "" }
        #expect(row("Wed 29 May").contains("\u{1B}[32m"))  // 10,710 ≥ 10,000
        #expect(!row("Sun 26 May").contains("\u{1B}[32m"))
        #expect(row("Sun 26 May").withoutEscapes.contains("│"))
        #expect(row("Thu 30 May").withoutEscapes.hasSuffix(" -"))  // no steps recorded that day
        #expect(lines.last?.contains("goal met on 2 of 7 days") ?? false, "\(lines)")
    }

    func aBarIsProportionalToItsValue() throws {
        let series = ChartSeries(type: .steps, unit: .count(), style: .bars, bucket: .day, points: [
            .init(start: TestSupport.date("2024-06-01T00:00:00Z"), end: TestSupport.date("2024-06-02T00:00:00Z"), value: 5000),
            .init(start: TestSupport.date("2024-06-02T00:00:00Z"), end: TestSupport.date("2024-06-03T00:00:00Z"), value: 10000),
        ])
        let lines = BarChart(series: series, calendar: ChartFixtures.calendar).render(style: TerminalStyle(width: 60, unicode: false))
        let bars = lines.dropFirst().prefix(2).map { $0.filter { $0 == "#" }.count }
        #expect(bars[1] > 0 && bars[0] * 2 == bars[1], "\(lines)")
    }
}

/// The checks ``ChartRenderingTests/checks(_:)`` runs.
private let chartRenderingTestsChecks: [Check<ChartRenderingTests>] = [
    Check("colourSnapshot", ChartRenderingTests.colourSnapshot),
    Check("colourAddsOnlyEscapes", ChartRenderingTests.colourAddsOnlyEscapes),
    Check("barsReachingTheGoalAreGreenAndTheGoalIsMarkedOnShortOnes",
          ChartRenderingTests.barsReachingTheGoalAreGreenAndTheGoalIsMarkedOnShortOnes),
    Check("aBarIsProportionalToItsValue", ChartRenderingTests.aBarIsProportionalToItsValue),
]
