import Foundation
import Testing
import TestKit

/// `hkctl chart` as a person reads it (issue 22), run as the built binary: ticks in one format, the goal's label
/// clear of the bars, sparse weight joined across days without data, partial weeks marked.
struct ChartCLITests {
    /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
    /// build a tenth of a `@Test` apiece (README.md, "Development").
    @Test(arguments: chartCLITestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    func aSparseWeightLineIsJoinedAcrossDaysWithoutDataOnEvenlySpacedRows() throws {
        try CLIRunner.withTemporaryStore { cli in
            for (day, kilograms) in [("2024-05-26", "71.5"), ("2024-05-27", "71.4"), ("2024-05-30", "70.9"), ("2024-06-01", "70.5")] {
                try expectEqual(cli.run(["add", "weight", kilograms + "kg", "--at", day + "T08:00"]).status, 0)
            }
            let chart = try cli.run(["chart", "weight", "--width", "60"])
            expectEqual(chart.status, 0, "\(chart.stderr)")
            let lines = chart.stdout.split(separator: "\n").map(String.init)
            let labelled = lines.indices.filter { lines[$0].contains("┤") }
            #expect(labelled.count >= 3)
            // Computed outside the macro: closures inside `#expect` took the type checker seconds.
            let spacings: Set<Int> = Set(zip(labelled, labelled.dropFirst()).map { (above: Int, below: Int) -> Int in below - above })
            expectEqual(spacings.count, 1, "evenly spaced labels: \(chart.stdout)")
            let labels: [String] = labelled.map { (row: Int) -> String in lines[row].split(separator: " ").first.map(String.init) ?? "" }
            let decimals: Set<Int> = Set(labels.map { (label: String) -> Int in label.split(separator: ".").dropFirst().first?.count ?? 0 })
            expectEqual(decimals.count, 1, "\(labels)")
            #expect(lines.contains("· · across days without data"), "\(chart.stdout)")
            expectEqual(lines.filter { $0.contains("•") }.count, 4)

            let svg = try cli.run(["chart", "weight", "--svg", "-"]).stdout
            #expect(svg.contains("class=\"gap\"") && svg.contains("stroke-dasharray=\"5 5\""), "\(svg)")
            #expect(svg.contains(">dashed: across days without data</text>"))
        }
    }

    func theGoalLabelSitsRightOfTheBarsAndTicksAreGrouped() throws {
        try TerminalCLITests.withDemo { cli in
            let svg = try cli.run(["chart", "steps", "--svg", "-"]).stdout
            let goal = try #require(svg.split(separator: "\n").first { $0.contains(">goal 10,000 steps</text>") })
            #expect(goal.contains("text-anchor=\"start\""))
            func attribute(_ name: String, _ line: Substring) -> Double? {
                guard let range = line.range(of: " \(name)=\"") else { return nil }
                return Double(line[range.upperBound...].prefix { $0 != "\"" })
            }
            let labelX = try #require(attribute("x", goal))
            let barEnds = svg.split(separator: "\n").filter { $0.hasPrefix("<rect") && $0.contains("<title>") }
                .compactMap { line in attribute("x", line).flatMap { x in attribute("width", line).map { x + $0 } } }
            #expect(barEnds.count == 7 && barEnds.allSatisfy { $0 < labelX }, "\(barEnds) vs \(labelX)")
            for tick in ["0", "2,500", "5,000", "7,500", "10,000", "12,500"] {
                #expect(svg.contains("text-anchor=\"end\" font-size=\"12\" fill=\"#555555\">\(tick)</text>"), "no tick \(tick)")
            }
        }
    }

    func partialWeeksAreMarked() throws {
        try TerminalCLITests.withDemo { cli in
            // 3 May (a Friday) to 1 June (a Saturday): the first and last weeks are cut by the range, the last one
            // is not over yet either; both are left out of the average a week.
            let chart = try cli.run(["chart", "steps", "--month", "--by", "week", "--width", "70"])
            expectEqual(chart.status, 0, "\(chart.stderr)")
            let rows = chart.stdout.split(separator: "\n").filter { $0.hasPrefix("wk ") }
            #expect(rows.first?.hasPrefix("wk 3 May* ") == true && rows.last?.hasPrefix("wk 27 May* ") == true, "\(chart.stdout)")
            #expect(rows.dropFirst().dropLast().allSatisfy { !$0.contains("*") })
            #expect(chart.stdout.hasSuffix("* weeks only partly in the range or not over yet\n"), "\(chart.stdout)")
            #expect(chart.stdout.contains(" a week (* left out)"), "\(chart.stdout)")
            let svg = try cli.run(["chart", "steps", "--month", "--by", "week", "--svg", "-"]).stdout
            #expect(svg.contains(">wk 27 May*</text>") && svg.contains("fill-opacity=\"0.45\"") && svg.contains(">* weeks only partly in the range or not over yet</text>"))
            // Whole weeks are not marked.
            let whole = try cli.run(["chart", "steps", "--from", "2024-05-13", "--to", "2024-05-26", "--by", "week"]).stdout
            #expect(!whole.contains("*"), "\(whole)")
        }
    }
}

/// The checks ``ChartCLITests/checks(_:)`` runs.
private let chartCLITestsChecks: [Check<ChartCLITests>] = [
    Check("aSparseWeightLineIsJoinedAcrossDaysWithoutDataOnEvenlySpacedRows",
          ChartCLITests.aSparseWeightLineIsJoinedAcrossDaysWithoutDataOnEvenlySpacedRows),
    Check("theGoalLabelSitsRightOfTheBarsAndTicksAreGrouped",
          ChartCLITests.theGoalLabelSitsRightOfTheBarsAndTicksAreGrouped),
    Check("partialWeeksAreMarked", ChartCLITests.partialWeeksAreMarked),
]
