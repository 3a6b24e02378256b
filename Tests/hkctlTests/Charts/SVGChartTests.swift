import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
import TestKit
import HealthCore
@testable import HKCtlCommands

struct SVGChartTests {
    /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
    /// build a tenth of a `@Test` apiece (README.md, "Development").
    @Test(arguments: sVGChartTestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    private func parse(_ svg: String) throws -> XMLElement {
        let document = try XMLDocument(xmlString: svg, options: [])
        let root = try #require(document.rootElement())
        expectEqual(root.name, "svg")
        return root
    }

    private func texts(_ root: XMLElement) throws -> [String] {
        try root.nodes(forXPath: "//*[local-name()='text']").compactMap(\.stringValue)
    }

    func barChartIsWellFormedWithAxesLabelsUnitsAndGoal() throws {
        let series = try ChartFixtures.series(.steps, goal: Quantity(10_000, .count()))
        let root = try parse(SVGChart(calendar: ChartFixtures.calendar).render(series))
        let labels = try texts(root)
        for expected in ["Steps per day", "steps", "Sun 26 May", "Sat 1 Jun", "0", "10,000", "goal 10,000 steps"] {
            #expect(labels.contains(expected), "no text '\(expected)' in \(labels)")
        }
        let bars = try root.nodes(forXPath: "//*[local-name()='rect'][*[local-name()='title']]")
        expectEqual(bars.count, 6)  // seven days, one without steps
        try expectEqual(root.nodes(forXPath: "//*[local-name()='line'][@stroke-dasharray]").count, 1)
    }

    func lineChartHasAPointPerRecordedDayAndBreaksAtGaps() throws {
        let root = try parse(SVGChart(calendar: ChartFixtures.calendar).render(try ChartFixtures.series(.weight)))
        try expectEqual(root.nodes(forXPath: "//*[local-name()='circle']").count, 6)
        try expectEqual(root.nodes(forXPath: "//*[local-name()='polyline']").count, 2)
        #expect(try texts(root).contains("kg"))
    }

    func sleepChartStacksStagesWithALegend() throws {
        let svg = SVGChart(calendar: ChartFixtures.calendar).render(sleep: try ChartFixtures.nights(), goal: 8 * 3600)
        let root = try parse(svg)
        let labels = try texts(root)
        for expected in ["Sleep per night", "hours", "deep", "core", "REM", "goal 8 h 00 min"] {
            #expect(labels.contains(expected), "no text '\(expected)' in \(labels)")
        }
    }

    func textIsEscaped() throws {
        expectEqual(SVGChart.escape("a<b & \"c\">"), "a&lt;b &amp; &quot;c&quot;&gt;")
    }
}

/// The checks ``SVGChartTests/checks(_:)`` runs.
private let sVGChartTestsChecks: [Check<SVGChartTests>] = [
    Check("barChartIsWellFormedWithAxesLabelsUnitsAndGoal",
          SVGChartTests.barChartIsWellFormedWithAxesLabelsUnitsAndGoal),
    Check("lineChartHasAPointPerRecordedDayAndBreaksAtGaps",
          SVGChartTests.lineChartHasAPointPerRecordedDayAndBreaksAtGaps),
    Check("sleepChartStacksStagesWithALegend", SVGChartTests.sleepChartStacksStagesWithALegend),
    Check("textIsEscaped", SVGChartTests.textIsEscaped),
]
