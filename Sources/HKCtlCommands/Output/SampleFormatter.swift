import HealthCore
import TextSupport

/// Renders samples as JSON objects, CSV rows or table rows, in one output unit and zone.
struct SampleFormatter {
    let type: SampleType
    /// The unit for quantities (nil for category types).
    let unit: HealthUnit?
    let timeZone: ZoneRules
    /// With `--tz recorded`: each sample's own zone.
    var recorded: RecordedZones? = nil

    /// The zone `sample`'s times are shown in.
    func zone(_ sample: Sample) -> ZoneRules { recorded?.zone(of: sample, fallback: timeZone) ?? timeZone }

    /// Always ends in `metadata` (a JSON object, empty when the sample has none), so scripts see one header.
    static let csvHeader = ["uuid", "type", "start", "end", "value", "unit", "source", "metadata"]

    /// The value in the output unit (quantities) or the category value's name.
    func value(_ sample: Sample) -> (number: Double?, name: String?) {
        switch sample.value {
        case let .quantity(quantity):
            // A value too large for the output unit (1e308 L in mL) is shown as stored, never as infinity.
            guard let unit, let converted = try? quantity.value(in: unit), converted.isFinite else { return (quantity.value, nil) }
            return (converted, nil)
        case let .category(raw):
            return (nil, type.categoryValue(raw: raw)?.name ?? String(raw))
        case let .generic(value, _):
            return (nil, value)
        }
    }

    private func unitText(_ sample: Sample) -> String? {
        if case let .generic(_, unit) = sample.value { return unit }
        guard let quantity = sample.value.quantity else { return nil }
        return unit.map { ((try? quantity.value(in: $0))?.isFinite ?? false) ? $0.unitString : quantity.unit.unitString }
            ?? quantity.unit.unitString
    }

    /// `{"uuid","type","start","end","value","unit","source"}`, plus `metadata` when present.
    func json(_ sample: Sample) -> String {
        let (number, name) = value(sample)
        var text = "{\"uuid\":\"\(sample.uuid.lowercasedText)\",\"type\":\(JSONText.quoted(sample.typeIdentifier))"
        let zone = self.zone(sample)
        text += ",\"start\":\"\(ISODate.format(sample.start, in: zone))\",\"end\":\"\(ISODate.format(sample.end, in: zone))\""
        text += ",\"value\":" + (number.map(NumberFormatting.json) ?? JSONText.quoted(name ?? ""))
        text += ",\"unit\":" + (unitText(sample).map(JSONText.quoted) ?? "null")
        text += ",\"source\":\(JSONText.quoted(sample.source))"
        if !sample.metadata.isEmpty { text += ",\"metadata\":" + MetadataText.json(sample.metadata) }
        return text + "}"
    }

    func csv(_ sample: Sample) -> String {
        let (number, name) = value(sample)
        let zone = self.zone(sample)
        return CSV.row([
            sample.uuid.lowercasedText, sample.typeIdentifier, ISODate.format(sample.start, in: zone),
            ISODate.format(sample.end, in: zone), number.map(NumberFormatting.json) ?? name ?? "",
            unitText(sample) ?? "", sample.source, MetadataText.csvField(sample.metadata),
        ])
    }

    static let tableHeaders = ["START", "END", "VALUE", "SOURCE", "UUID"]

    func tableRow(_ sample: Sample) -> [String] {
        let (number, name) = value(sample)
        let shown = number.map { Display.quantity($0, unit: unitText(sample) ?? "") } ?? name ?? ""
        let zone = self.zone(sample)
        return [Display.time(sample.start, in: zone), Display.time(sample.end, in: zone), shown,
                sample.source, sample.uuid.lowercasedText]
    }
}

/// Human renderings for tables.
enum Display {
    /// `2024-06-01 08:30` (with seconds when they are not zero), in `zone`.
    static func time(_ date: Date, in zone: ZoneRules) -> String {
        // `2024-06-01T08:30:05+02:00` → `2024-06-01 08:30:05`, or `2024-06-01 08:30` on the minute.
        var bytes = Array(ISODate.localText(date, in: zone).utf8.prefix(19))
        guard bytes.count == 19 else { return String(decoding: bytes, as: UTF8.self) }
        bytes[10] = UInt8(ascii: " ")
        if bytes[17] == UInt8(ascii: "0") && bytes[18] == UInt8(ascii: "0") { bytes.removeLast(3) }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A column of times with one precision: every one to the minute (`2024-06-01 08:30`), or every one to the second
    /// when any has seconds (`2024-06-01 08:30:00` beside `2024-06-01 09:12:05`), in `zone`.
    static func times(_ dates: [Date], in zone: ZoneRules) -> [String] {
        let shown = dates.map { time($0, in: zone) }
        guard shown.contains(where: { $0.utf8.count > 16 }) else { return shown }
        return shown.map { $0.utf8.count == 16 ? $0 + ":00" : $0 }
    }

    /// `1,500 mL`, with the precision and unit name charts use (``ChartFormat/fractionDigits(forUnitString:)``,
    /// ``ChartFormat/unitName(_:)``); a `%` value (a fraction) shows as percent: 0.215 → `21.5 %`. JSON and CSV keep
    /// full precision and HealthKit's unit spellings.
    static func quantity(_ value: Double, unit: String) -> String {
        if unit == "%" { return ChartFormat.number(value * 100, unitString: unit) + " %" }
        let number = ChartFormat.number(value, unitString: unit)
        return unit == "count" ? number : number + " " + ChartFormat.unitName(unit)
    }

    /// `7 h 55 min`.
    static func duration(_ seconds: TimeInterval) -> String {
        let minutes = Int(saturating: (seconds / 60).rounded())
        return minutes >= 60 ? "\(minutes / 60) h \(NumberFormatting.zeroPadded(minutes % 60, width: 2)) min" : "\(minutes) min"
    }
}
