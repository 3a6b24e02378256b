import Foundation
import HealthCore

/// Prints a ``StatisticsResult`` as JSON, CSV or a table.
struct StatisticsOutput {
    let result: StatisticsResult
    let context: CommandContext

    private var zone: TimeZone { context.globals.time.timeZone }
    private var unitText: String { result.unit?.unitString ?? (result.type.kind == .category ? "s" : "") }

    /// The figures this type has, as (key, value) with nil for "no data".
    private func fields(_ statistics: Statistics) -> [(String, Double?)] {
        if result.type.isSleepAnalysis {
            return [("asleep", statistics.asleep), ("inBed", statistics.inBed), ("count", Double(statistics.sampleCount))]
        }
        if result.type.kind == .category {
            return [("duration", statistics.duration), ("count", Double(statistics.sampleCount))]
        }
        if result.type.aggregation?.isCumulative ?? false {
            return [("sum", statistics.sum), ("count", Double(statistics.sampleCount))]
        }
        return [("average", statistics.average), ("minimum", statistics.minimum), ("maximum", statistics.maximum),
                ("mostRecent", statistics.mostRecent), ("count", Double(statistics.sampleCount))]
    }

    func print() {
        switch context.globals.format {
        case .json: printJSON()
        case .csv: printCSV()
        case .table: printTable()
        }
    }

    private func jsonFields(_ statistics: Statistics) -> String {
        var parts = fields(statistics).map { key, value in
            "\"\(key)\":" + (value.map(NumberFormatting.json) ?? "null")
        }
        if result.type.kind == .quantity, !(result.type.aggregation?.isCumulative ?? true) {
            parts.append("\"mostRecentDate\":" + (statistics.mostRecentDate.map { "\"\(ISODate.format($0, in: zone))\"" } ?? "null"))
        }
        return parts.joined(separator: ",")
    }

    private func printJSON() {
        let total = result.total
        var text = "{\"type\":\(JSONText.quoted(result.type.identifier)),\"unit\":\(JSONText.quoted(unitText))"
        text += ",\"from\":\"\(ISODate.format(total.start, in: zone))\",\"to\":\"\(ISODate.format(total.end, in: zone))\","
        text += jsonFields(total)
        if context.globalsHaveBuckets(result) {
            let buckets = result.buckets.map { bucket in
                "{\"start\":\"\(ISODate.format(bucket.start, in: zone))\",\"end\":\"\(ISODate.format(bucket.end, in: zone))\"," + jsonFields(bucket) + "}"
            }
            text += ",\"buckets\":[" + buckets.joined(separator: ",") + "]"
        }
        context.console.line(text + "}")
    }

    private func printCSV() {
        let keys = fields(result.total).map(\.0)
        context.console.line(CSV.row(["start", "end"] + keys + ["unit"]))
        let rows = context.globalsHaveBuckets(result) ? result.buckets : [result.total]
        for row in rows {
            let values = fields(row).map { $0.1.map(NumberFormatting.json) ?? "" }
            context.console.line(CSV.row([ISODate.format(row.start, in: zone), ISODate.format(row.end, in: zone)] + values + [unitText]))
        }
    }

    private func show(_ key: String, _ value: Double?) -> String {
        guard let value else { return "-" }
        if key == "count" { return NumberFormatting.human(value, fractionDigits: 0) }
        if result.type.kind == .category { return Display.duration(value) }
        return Display.quantity(value, unit: unitText)
    }

    private func printTable() {
        let total = result.total
        let console = context.console
        let title = "\(result.type.title), \(Display.time(total.start, in: zone)) to \(Display.time(total.end, in: zone)) (\(zone.identifier))"
        console.line(title)
        let names: [String: String] = [
            "sum": "total", "count": "samples", "average": "average", "minimum": "minimum", "maximum": "maximum",
            "mostRecent": "latest", "asleep": "asleep", "inBed": "in bed", "duration": "duration",
        ]
        if context.globalsHaveBuckets(result) {
            let keys = fields(total).map(\.0)
            var table = TableWriter(headers: ["START", "END"] + keys.map { names[$0]!.uppercased() },
                                    rightAligned: Set(2..<(2 + keys.count)))
            for bucket in result.buckets {
                table.add([Display.time(bucket.start, in: zone), Display.time(bucket.end, in: zone)]
                    + fields(bucket).map { show($0.0, $0.1) })
            }
            table.add(["all", ""] + fields(total).map { show($0.0, $0.1) })
            for line in table.lines() { console.line(line) }
        } else {
            var table = TableWriter(headers: ["", ""], rightAligned: [1])
            for (key, value) in fields(total) { table.add([names[key]!, show(key, value)]) }
            for line in table.lines().dropFirst() { console.line(line) }
        }
    }
}

extension CommandContext {
    /// Whether the result was asked for per bucket.
    func globalsHaveBuckets(_ result: StatisticsResult) -> Bool { !result.buckets.isEmpty }
}
