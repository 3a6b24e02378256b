import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
import TestKit
import HealthCore
@testable import HKCtlCommands
import TextSupport

/// Charts a person can read (issue 22): tick labels in one format per axis, the goal's label clear of the bars,
/// sparse lines joined across days without data, partial weeks marked, evenly spaced rows on the terminal line.
struct ChartReadabilityTests {
    /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
    /// build a tenth of a `@Test` apiece (README.md, "Development").
    @Test(arguments: chartReadabilityTestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    private static let calendar = ChartFixtures.calendar
    private static let kilograms = try! HealthUnit(parsing: "kg")

    /// Days from 2024-05-26 with these weights (nil: no reading that day).
    private static func weights(_ values: [Double?]) -> ChartSeries {
        let start = TestSupport.date("2024-05-26T00:00:00Z")
        let points = values.enumerated().map { index, value in
            ChartSeries.Point(start: start.addingTimeInterval(Double(index) * 86_400),
                              end: start.addingTimeInterval(Double(index + 1) * 86_400), value: value)
        }
        return ChartSeries(type: .weight, unit: kilograms, style: .line, bucket: .day, points: points)
    }

    private func parse(_ svg: String) throws -> XMLElement {
        try #require(try XMLDocument(xmlString: svg, options: []).rootElement())
    }

    private func elements(_ root: XMLElement, _ name: String) throws -> [XMLElement] {
        try root.nodes(forXPath: "//*[local-name()='\(name)']").compactMap { $0 as? XMLElement }
    }

    private func number(_ element: XMLElement, _ name: String) -> Double {
        Double(attribute(element, name) ?? "") ?? .nan
    }

    /// An attribute's value (FoundationXML's `attribute(forName:)` finds none in an element of the SVG namespace).
    private func attribute(_ element: XMLElement, _ name: String) -> String? {
        element.attributes?.first { $0.name == name }?.stringValue
    }

    // MARK: - Tick labels

    func tickLabelsShareOneFormatPerAxis() {
        expectEqual(ChartFormat.axisLabels([0, 2500, 5000, 7500, 10_000], unit: .count()), ["0", "2,500", "5,000", "7,500", "10,000"])
        expectEqual(ChartFormat.axisLabels([71, 71.2, 71.4], unit: Self.kilograms), ["71.0", "71.2", "71.4"])
        expectEqual(ChartFormat.axisLabels([70.5, 70.75, 71], unit: Self.kilograms), ["70.50", "70.75", "71.00"])
        expectEqual(ChartFormat.axisLabels([0, 15_000], unit: .count()), ["0", "15,000"])
        expectEqual(ChartFormat.axisLabels([0.95, 0.975, 1], unit: .percent()), ["95.0", "97.5", "100.0"])
        expectEqual(ChartFormat.axisLabels([1000, 1500], unit: nil), ["1,000", "1,500"])
        // Ticks computed by adding steps carry rounding error; the labels do not.
        let scale = AxisScale(covering: 71.03, 71.38, targetTicks: 4)
        let labels = ChartFormat.tickLabels(scale, unit: Self.kilograms)
        #expect(labels.count == scale.ticks.count && Set(labels.map { $0.split(separator: ".").dropFirst().first?.count }).count == 1, "\(labels)")
    }

    func svgTickLabelsHaveTheSameDecimals() throws {
        let root = try parse(SVGChart(calendar: Self.calendar).render(Self.weights([71.5, 71.4, 71.2, nil, 70.9, 70.7, 70.5])))
        let ticks = try elements(root, "text").filter { attribute($0, "text-anchor") == "end" }.compactMap(\.stringValue)
        #expect(ticks.count >= 3)
        expectEqual(Set(ticks.map { $0.split(separator: ".").dropFirst().first?.count ?? 0 }), [1], "\(ticks)")
        let steps = try parse(SVGChart(calendar: Self.calendar).render(try ChartFixtures.series(.steps, goal: Quantity(10_000, .count()))))
        let stepTicks = try elements(steps, "text").filter { attribute($0, "text-anchor") == "end" }.compactMap(\.stringValue)
        expectEqual(stepTicks, ["0", "2,500", "5,000", "7,500", "10,000", "12,500"], "\(stepTicks)")
    }

    // MARK: - Goal label

    @Test(arguments: [320, 500, 800, 1200])
    func theGoalLabelIsClearOfTheBars(width: Int) throws {
        let chart = SVGChart(width: width, calendar: Self.calendar)
        for svg in [chart.render(try ChartFixtures.series(.steps, goal: Quantity(10_000, .count()))),
                    chart.render(sleep: try ChartFixtures.nights(), goal: 7.5 * 3600)] {
            let root = try parse(svg)
            let label = try #require(try elements(root, "text").first { $0.stringValue?.hasPrefix("goal ") == true })
            let labelLeft = number(label, "x")
            expectEqual(attribute(label, "text-anchor"), "start")
            let bars = try elements(root, "rect").filter { $0.elements(forName: "title").count == 1 }
            #expect(!bars.isEmpty)
            let rightmost = bars.map { number($0, "x") + number($0, "width") }.max() ?? 0
            #expect(labelLeft > rightmost, "the label starts at \(labelLeft), a bar ends at \(rightmost)")
            let goalLine = try #require(try elements(root, "line").first { attribute($0, "stroke-dasharray") != nil })
            #expect(number(goalLine, "x2") < labelLeft)
            let text = label.stringValue ?? ""
            #expect(labelLeft + SVGChart.textWidth(text, size: 12) <= Double(width), "the label fits the image")
        }
    }

    func theTerminalGoalMarkNeverCoversABar() throws {
        let series = try ChartFixtures.series(.steps, goal: Quantity(10_000, .count()))
        let lines = BarChart(series: series, calendar: Self.calendar).render(style: TerminalStyle(width: 60, colour: false))
        for line in lines where line.hasPrefix("Wed 29 May") || line.hasPrefix("Sat 1 Jun") {
            #expect(!line.contains("│"), "a bar past the goal hides the mark: \(line)")
        }
        for line in lines where line.contains("│") {
            let mark = line.firstIndex(of: "│")!
            #expect(!line[mark...].contains("█"), "the mark is after the bar: \(line)")
        }
    }

    // MARK: - Sparse lines

    func svgJoinsReadingsAcrossDaysWithoutDataWithADashedSegment() throws {
        let root = try parse(SVGChart(calendar: Self.calendar).render(Self.weights([71.5, 71.4, nil, nil, 70.9, 70.7, nil])))
        let circles = try elements(root, "circle").map { (number($0, "cx"), number($0, "cy")) }
        expectEqual(circles.count, 4)
        let gaps = try elements(root, "path").filter { attribute($0, "class") == "gap" }
        expectEqual(gaps.count, 1)
        let gap = try #require(gaps.first)
        #expect(attribute(gap, "stroke-dasharray") != nil)
        let d = attribute(gap, "d") ?? ""
        let coordinates = d.split(whereSeparator: { "ML ".contains($0) }).compactMap { Double($0) }
        expectEqual(coordinates.count, 4)
        if coordinates.count == 4 {
            #expect(abs(coordinates[0] - circles[1].0) < 0.11 && abs(coordinates[1] - circles[1].1) < 0.11, "from 27 May's reading")
            #expect(abs(coordinates[2] - circles[2].0) < 0.11 && abs(coordinates[3] - circles[2].1) < 0.11, "to 30 May's reading")
        }
        // The solid runs stay apart; nothing is drawn after the last reading, nothing drops to zero.
        try expectEqual(elements(root, "polyline").count, 2)
        let bottom = try elements(root, "line").map { number($0, "y1") }.max() ?? 0
        #expect(circles.allSatisfy { $0.1 < bottom })
        #expect(try elements(root, "text").contains { $0.stringValue == "dashed: across days without data" })
        // Without a gap, no dashed segment and no note.
        let full = try parse(SVGChart(calendar: Self.calendar).render(Self.weights([71.5, 71.4, 71.2])))
        #expect(try elements(full, "path").isEmpty)
        let notes = try elements(full, "text").filter { $0.stringValue?.hasPrefix("dashed") == true }
        #expect(notes.isEmpty)
    }

    /// The plot's rows: label (nil on rows without one) and the cells right of the axis.
    private func plotRows(_ lines: [String]) -> [(label: String?, cells: [Character])] {
        lines.compactMap { line in
            guard let axis = line.firstIndex(where: { $0 == "┤" || $0 == "│" }) else { return nil }
            let label = line[..<axis].trimmingCharacters(in: .whitespaces)
            return (label.isEmpty ? nil : label, Array(line[line.index(after: axis)...]))
        }
    }

    @Test(arguments: [40, 60, 80, 120])
    func theTerminalLineHasEvenlySpacedLabelsAndDotsOnlyBetweenReadings(width: Int) throws {
        for values in [[71.5, 71.4, 71.2, nil, 70.9, 70.7, 70.5], [nil, 72.7, nil, nil, nil, 70.1, nil], [71.03, 71.38, 71.2, 71.1, 71.3, 71.35, 71.04],
                       [1200, 1500, nil, 900, 1000, 1100, 950]] as [[Double?]] {
            let series = Self.weights(values)
            let lines = LineChart(series: series, calendar: Self.calendar).render(style: TerminalStyle(width: width, colour: false))
            let rows = plotRows(lines)
            #expect(rows.count >= 8, "\(lines)")
            // Labels on every k-th row, their values a constant step apart, all with the same decimals.
            let labelled = rows.indices.filter { rows[$0].label != nil }
            let spacing = Set(zip(labelled, labelled.dropFirst()).map { $1 - $0 })
            #expect(spacing.count == 1 && labelled.first == 0 && labelled.last == rows.count - 1, "\(lines)")
            let values = labelled.compactMap { Double(rows[$0].label!.replacingOccurrences(of: ",", with: "")) }
            let steps = Set(zip(values, values.dropFirst()).map { (($0 - $1) * 1000).rounded() })
            expectEqual(steps.count, 1, "\(lines)")
            // Computed outside the macro: a closure inside `#expect` took the type checker seconds.
            let decimals: Set<Int> = Set(labelled.map { (row: Int) -> Int in rows[row].label!.split(separator: ".").dropFirst().first?.count ?? 0 })
            expectEqual(decimals.count, 1, "\(lines)")
            // Every dot lies between two readings' columns and rows.
            let points = rows.enumerated().flatMap { y, row in row.cells.enumerated().filter { $0.element == "•" }.map { (x: $0.offset, y: y) } }
                .sorted { $0.x < $1.x }
            expectEqual(points.count, series.recorded.count)
            for (y, row) in rows.enumerated() {
                for (x, cell) in row.cells.enumerated() where cell == "·" {
                    let segment = zip(points, points.dropFirst()).first { $0.x < x && x < $1.x }
                    #expect(segment != nil, "a stray dot at column \(x): \(lines)")
                    if let (a, b) = segment { #expect((min(a.y, b.y)...max(a.y, b.y)).contains(y), "a dot off its segment: \(lines)") }
                }
            }
            let gap = series.bridgesGaps
            expectEqual(lines.contains("· · across days without data"), gap, "\(lines)")
        }
    }

    // MARK: - Partial weeks

    /// Steps by week over 2024-05-01 (a Wednesday) to 2024-05-31: the first and last weeks are partial.
    private func weeks() throws -> ChartSeries {
        let interval = DateInterval(start: TestSupport.date("2024-05-01T00:00:00Z"), end: TestSupport.date("2024-06-01T00:00:00Z"))
        let samples = (0..<31).map { day in
            TestSupport.quantitySample(.steps, 1000, "count", start: ISODate.format(interval.start.addingTimeInterval(Double(day) * 86_400 + 3600), in: .gmt))
        }
        let result = try StatisticsRequest(type: .steps, interval: interval, bucketUnit: .week)
            .run(on: InMemorySampleStore(samples), calendar: Self.calendar)
        return ChartSeries(result: result, bucket: .week, calendar: Self.calendar)
    }

    func partialPeriodsAreFoundByTheCalendar() throws {
        let series = try weeks()
        expectEqual(series.points.map(\.partial), [true, false, false, false, true], "\(series.points)")
        expectEqual(series.partialNote, "* weeks only partly in the range")
        let day = TestSupport.date("2024-05-06T00:00:00Z")
        #expect(!ChartSeries.isPartial(start: day, end: day.addingTimeInterval(86_400), bucket: .day, calendar: Self.calendar))
        #expect(!ChartSeries.isPartial(start: day.addingTimeInterval(14 * 3600), end: day.addingTimeInterval(15 * 3600), bucket: .hour,
                                       calendar: Self.calendar))
        #expect(ChartSeries.isPartial(start: TestSupport.date("2024-05-02T00:00:00Z"), end: TestSupport.date("2024-06-01T00:00:00Z"),
                                      bucket: .month, calendar: Self.calendar))
        #expect(!ChartSeries.isPartial(start: TestSupport.date("2024-05-01T00:00:00Z"), end: TestSupport.date("2024-06-01T00:00:00Z"),
                                       bucket: .month, calendar: Self.calendar))
        // A day whose midnight the zone skips (Santiago, 2024-09-08 from 01:00) is whole from its 01:00 to the next
        // midnight; the day before it ends at that 01:00 (a review: both were marked partial).
        let santiago = GregorianCalendar(timeZone: IndependentTestKit.zone("America/Santiago"))
        #expect(!ChartSeries.isPartial(start: TestSupport.date("2024-09-08T04:00:00Z"), end: TestSupport.date("2024-09-09T03:00:00Z"),
                                       bucket: .day, calendar: santiago))
        #expect(!ChartSeries.isPartial(start: TestSupport.date("2024-09-07T04:00:00Z"), end: TestSupport.date("2024-09-08T04:00:00Z"),
                                       bucket: .day, calendar: santiago))
        #expect(ChartSeries.isPartial(start: TestSupport.date("2024-09-08T04:00:00Z"), end: TestSupport.date("2024-09-09T04:00:00Z"),
                                      bucket: .day, calendar: santiago))
        // Without a calendar nothing is marked (the series of earlier callers).
        let result = try StatisticsRequest(type: .steps, interval: ChartFixtures.week, bucketUnit: .week).run(on: ChartFixtures.store, calendar: Self.calendar)
        let unmarked = ChartSeries(result: result, bucket: .week).points.filter(\.partial)
        #expect(unmarked.isEmpty)
    }

    func aPeriodNotOverYetIsMarkedForTotalsOnly() throws {
        let interval = DateInterval(start: TestSupport.date("2024-05-27T00:00:00Z"), end: TestSupport.date("2024-06-02T00:00:00Z"))
        let now = TestSupport.date("2024-06-01T12:00:00Z")
        let steps = (0..<6).map { TestSupport.quantitySample(.steps, $0 == 5 ? 400 : 8000, "count",
                                                              start: ISODate.format(interval.start.addingTimeInterval(Double($0) * 86_400 + 3600), in: .gmt)) }
        let result = try StatisticsRequest(type: .steps, interval: interval, bucketUnit: .day)
            .run(on: InMemorySampleStore(steps), calendar: Self.calendar)
        let series = ChartSeries(result: result, bucket: .day, calendar: Self.calendar, now: now)
        expectEqual(series.points.map(\.unfinished), [false, false, false, false, false, true])
        expectEqual(series.partialNote, "* day not over yet")
        #expect(series.average == 8000 && series.averageLeavesOutPartial)
        // A line of averages: an average so far is an average, nothing is marked.
        let weights = (0..<6).map { TestSupport.quantitySample(.weight, 70, "kg",
                                                                start: ISODate.format(interval.start.addingTimeInterval(Double($0) * 86_400 + 3600), in: .gmt)) }
        let line = ChartSeries(result: try StatisticsRequest(type: .weight, interval: interval, bucketUnit: .day)
            .run(on: InMemorySampleStore(weights), calendar: Self.calendar), bucket: .day, calendar: Self.calendar, now: now)
        #expect(line.points.allSatisfy { !$0.partial } && line.partialNote == nil)
    }

    func partialWeeksAreMarkedInTheTerminalAndTheSVG() throws {
        let series = try weeks()
        let lines = BarChart(series: series, calendar: Self.calendar).render(style: TerminalStyle(width: 60, colour: false))
        let rows = lines.filter { $0.hasPrefix("wk ") }
        expectEqual(rows.count, 5)
        expectEqual(rows.map { $0.split(separator: " ").prefix(3).joined(separator: " ").contains("*") }, [true, false, false, false, true], "\(rows)")
        expectEqual(lines.last, "* weeks only partly in the range")
        // 5,000 + 7,000 × 3 + 5,000 steps: the average a week is of the three whole weeks.
        expectEqual(series.average, 7000)
        #expect(lines.contains { $0.contains("average 7,000 steps a week (* left out)") }, "\(lines)")
        let coloured = BarChart(series: series, calendar: Self.calendar).render(style: TerminalStyle(width: 60, colour: true))
        expectEqual(coloured.first { $0.withoutEscapes.hasPrefix("wk 1 May*") }?.contains("\u{1B}[2m"), true, "a dim bar")

        let root = try parse(SVGChart(calendar: Self.calendar).render(series))
        let bars = try elements(root, "rect").filter { $0.elements(forName: "title").count == 1 }
        expectEqual(bars.map { attribute($0, "fill-opacity") != nil }, [true, false, false, false, true])
        let texts = try elements(root, "text").compactMap(\.stringValue)
        #expect(texts.contains("wk 1 May*") && texts.contains("wk 27 May*") && texts.contains("wk 6 May"), "\(texts)")
        #expect(texts.contains("* weeks only partly in the range"))
    }
}

/// The checks ``ChartReadabilityTests/checks(_:)`` runs.
private let chartReadabilityTestsChecks: [Check<ChartReadabilityTests>] = [
    Check("tickLabelsShareOneFormatPerAxis", ChartReadabilityTests.tickLabelsShareOneFormatPerAxis),
    Check("svgTickLabelsHaveTheSameDecimals", ChartReadabilityTests.svgTickLabelsHaveTheSameDecimals),
    Check("theTerminalGoalMarkNeverCoversABar", ChartReadabilityTests.theTerminalGoalMarkNeverCoversABar),
    Check("svgJoinsReadingsAcrossDaysWithoutDataWithADashedSegment",
          ChartReadabilityTests.svgJoinsReadingsAcrossDaysWithoutDataWithADashedSegment),
    Check("partialPeriodsAreFoundByTheCalendar", ChartReadabilityTests.partialPeriodsAreFoundByTheCalendar),
    Check("aPeriodNotOverYetIsMarkedForTotalsOnly", ChartReadabilityTests.aPeriodNotOverYetIsMarkedForTotalsOnly),
    Check("partialWeeksAreMarkedInTheTerminalAndTheSVG",
          ChartReadabilityTests.partialWeeksAreMarkedInTheTerminalAndTheSVG),
]
