import HealthCore
import TextSupport

/// Renders blood-pressure readings and food entries (`add`, `list`, `changes`) and blood-pressure summaries.
struct CorrelationOutput {
    let context: CommandContext
    let type: CorrelationType?
    var zone: ZoneRules { context.globals.time.timeZone }

    /// The zone a reading or entry is shown in: with `--tz recorded` the one it was recorded in, else the command's.
    private func zone(of sample: Sample) -> ZoneRules { context.globals.recordedZones?.zone(of: sample, fallback: zone) ?? zone }
    static let mmHg = try! HealthUnit(parsing: "mmHg")

    private func pressure(_ correlation: Correlation, _ identifier: String) -> Double? {
        try? correlation.member(ofType: identifier)?.value.quantity?.value(in: CorrelationOutput.mmHg)
    }

    private func number(_ value: Double?) -> String { value.map { NumberFormatting.json(($0 * 100).rounded() / 100) } ?? "null" }

    /// Blood pressure: `{"uuid","type","start","end","systolic","diastolic","unit":"mmHg","source","members"}`;
    /// food: `{"uuid","type","start","end","food","nutrients":[{"type","name","value","unit","uuid"}],"source","members"}`.
    /// `members` lists every member's uuid and type; `metadata` is added when present.
    func json(_ correlation: Correlation) -> String {
        let sample = correlation.sample
        let zone = zone(of: sample)
        var text = "{\"uuid\":\"\(sample.uuid.lowercasedText)\",\"type\":\(JSONText.quoted(sample.typeIdentifier))"
        text += ",\"start\":\"\(ISODate.format(sample.start, in: zone))\",\"end\":\"\(ISODate.format(sample.end, in: zone))\""
        if CorrelationType.identified(sample.typeIdentifier) == .bloodPressure {
            text += ",\"systolic\":\(number(pressure(correlation, "HKQuantityTypeIdentifierBloodPressureSystolic")))"
            text += ",\"diastolic\":\(number(pressure(correlation, "HKQuantityTypeIdentifierBloodPressureDiastolic"))),\"unit\":\"mmHg\""
        } else {
            text += ",\"food\":" + (correlation.foodName.map(JSONText.quoted) ?? "null")
            text += ",\"nutrients\":[" + correlation.members.map { member in
                let type = context.catalogue.type(identifier: member.typeIdentifier)
                let quantity = member.value.quantity
                let shown = quantity.flatMap { quantity in type?.displayUnit.flatMap { try? quantity.converted(to: $0) } } ?? quantity
                return "{\"type\":\(JSONText.quoted(member.typeIdentifier)),\"name\":\(JSONText.quoted(type?.name ?? member.typeIdentifier)),"
                    + "\"value\":\(number(shown?.value)),\"unit\":\(shown.map { JSONText.quoted($0.unit.unitString) } ?? "null"),"
                    + "\"uuid\":\"\(member.uuid.lowercasedText)\"}"
            }.joined(separator: ",") + "]"
        }
        text += ",\"source\":\(JSONText.quoted(sample.source))"
        text += ",\"members\":[" + (sample.detail?.correlation?.members ?? []).map { member in
            "{\"uuid\":\"\(member.uuid.lowercasedText)\",\"type\":\(JSONText.quoted(member.typeIdentifier))}"
        }.joined(separator: ",") + "]"
        return text + MetadataJSON.field(sample.metadata) + "}"
    }

    private func nutrientText(_ correlation: Correlation) -> String {
        correlation.members.compactMap { member -> String? in
            guard let type = context.catalogue.type(identifier: member.typeIdentifier), let quantity = member.value.quantity else { return nil }
            let shown = type.displayUnit.flatMap { try? quantity.converted(to: $0) } ?? quantity
            return "\(type.name) \(Display.quantity(shown.value, unit: shown.unit.unitString))"
        }.joined(separator: ", ")
    }

    /// Prints correlations; `single` prints one JSON object instead of an array (for `add`).
    func print(_ correlations: [Correlation], single: Bool = false) {
        let console = context.console
        let isPressure = type == .bloodPressure
        switch context.globals.format {
        case .json:
            let objects = correlations.map(json)
            if single, let only = objects.first { console.line(only) } else { console.line("[" + objects.joined(separator: ",") + "]") }
        case .csv:
            if isPressure {
                console.line("uuid,start,systolic,diastolic,unit,source,metadata")
                for item in correlations {
                    console.line(CSV.row([item.sample.uuid.lowercasedText, ISODate.format(item.sample.start, in: zone(of: item.sample)),
                                          pressure(item, "HKQuantityTypeIdentifierBloodPressureSystolic").map(NumberFormatting.json) ?? "",
                                          pressure(item, "HKQuantityTypeIdentifierBloodPressureDiastolic").map(NumberFormatting.json) ?? "",
                                          "mmHg", item.sample.source, MetadataText.csvField(item.sample.metadata, userOnly: true)]))
                }
            } else {
                console.line("uuid,start,food,nutrients,source,metadata")
                for item in correlations {
                    console.line(CSV.row([item.sample.uuid.lowercasedText, ISODate.format(item.sample.start, in: zone(of: item.sample)),
                                          item.foodName ?? "", nutrientText(item), item.sample.source, MetadataText.csvField(item.sample.metadata, userOnly: true)]))
                }
            }
        case .table:
            if correlations.isEmpty {
                console.note(isPressure ? "No blood-pressure readings in this range." : "No food entries in this range.")
                return
            }
            let metadata = MetadataColumn(correlations.map(\.sample.metadata))
            var table = TableWriter(headers: metadata.headers(isPressure ? ["TIME", "READING", "SOURCE", "UUID"]
                                                                         : ["TIME", "FOOD", "NUTRIENTS", "SOURCE", "UUID"]),
                                    rightAligned: isPressure ? [1] : [])
            for item in correlations {
                let time = Display.time(item.sample.start, in: zone(of: item.sample))
                if isPressure {
                    let reading = [pressure(item, "HKQuantityTypeIdentifierBloodPressureSystolic"),
                                   pressure(item, "HKQuantityTypeIdentifierBloodPressureDiastolic")]
                        .map { $0.map { NumberFormatting.human($0, fractionDigits: 1) } ?? "-" }.joined(separator: "/") + " mmHg"
                    table.add(metadata.row([time, reading, item.sample.source, item.sample.uuid.lowercasedText], item.sample.metadata))
                } else {
                    table.add(metadata.row([time, item.foodName ?? "-", nutrientText(item), item.sample.source, item.sample.uuid.lowercasedText],
                                           item.sample.metadata))
                }
            }
            for line in table.lines() { console.line(line) }
        }
    }

    // MARK: - Summary

    private func figures(_ readings: BloodPressureSummary.Readings) -> String {
        func block(_ figures: BloodPressureSummary.Figures) -> String {
            "{\"average\":\(number(figures.average)),\"minimum\":\(number(figures.minimum)),\"maximum\":\(number(figures.maximum))}"
        }
        return "\"count\":\(readings.count),\"systolic\":\(block(readings.systolic)),\"diastolic\":\(block(readings.diastolic))"
    }

    /// `{"type","unit":"mmHg","from","to","count","systolic":{"average","minimum","maximum"},"diastolic":{…},"buckets":[…]}`.
    func print(_ summary: BloodPressureSummary, bucketed: Bool) {
        let console = context.console
        let rows: [(DateInterval, BloodPressureSummary.Readings)] = bucketed
            ? summary.buckets.map { ($0.interval, $0.readings) } : [(summary.interval, summary.total)]
        switch context.globals.format {
        case .json:
            var text = "{\"type\":\"\(CorrelationType.bloodPressure.identifier)\",\"unit\":\"mmHg\""
            text += ",\"from\":\"\(ISODate.format(summary.interval.start, in: zone))\",\"to\":\"\(ISODate.format(summary.interval.end, in: zone))\","
            text += figures(summary.total)
            if bucketed {
                text += ",\"buckets\":[" + summary.buckets.map { bucket in
                    "{\"start\":\"\(ISODate.format(bucket.interval.start, in: zone))\",\"end\":\"\(ISODate.format(bucket.interval.end, in: zone))\","
                        + figures(bucket.readings) + "}"
                }.joined(separator: ",") + "]"
            }
            console.line(text + "}")
        case .csv:
            console.line("start,end,count,systolic_average,systolic_minimum,systolic_maximum,diastolic_average,diastolic_minimum,diastolic_maximum,unit")
            for (interval, readings) in rows {
                let values = [readings.systolic, readings.diastolic].flatMap { [$0.average, $0.minimum, $0.maximum] }
                console.line(CSV.row([ISODate.format(interval.start, in: zone), ISODate.format(interval.end, in: zone), String(readings.count)]
                                     + values.map { $0.map { NumberFormatting.json(($0 * 100).rounded() / 100) } ?? "" } + ["mmHg"]))
            }
        case .table:
            var table = TableWriter(headers: ["START", "END", "COUNT", "AVERAGE", "MINIMUM", "MAXIMUM"], rightAligned: [2, 3, 4, 5])
            for (interval, readings) in rows {
                func pair(_ a: Double?, _ b: Double?) -> String {
                    guard let a, let b else { return "-" }
                    return NumberFormatting.human(a, fractionDigits: 0) + "/" + NumberFormatting.human(b, fractionDigits: 0) + " mmHg"
                }
                table.add([Display.time(interval.start, in: zone), Display.time(interval.end, in: zone), String(readings.count),
                           pair(readings.systolic.average, readings.diastolic.average),
                           pair(readings.systolic.minimum, readings.diastolic.minimum),
                           pair(readings.systolic.maximum, readings.diastolic.maximum)])
            }
            for line in table.lines() { console.line(line) }
        }
    }
}
