import HealthCore

/// Prints samples in the chosen format.
enum SampleOutput {
    /// - Parameter single: Print a JSON object rather than an array (for `add`).
    static func print(_ samples: [Sample], type: SampleType, unit: HealthUnit?, context: CommandContext, single: Bool = false) {
        let formatter = SampleFormatter(type: type, unit: unit, timeZone: context.globals.time.timeZone,
                                        recorded: context.globals.recordedZones)
        let console = context.console
        switch context.globals.format {
        case .json:
            if single, let sample = samples.first {
                console.line(formatter.json(sample))
            } else if samples.isEmpty {
                console.line("[]")
            } else {
                console.line("[")
                for (index, sample) in samples.enumerated() {
                    console.line("  " + formatter.json(sample) + (index == samples.count - 1 ? "" : ","))
                }
                console.line("]")
            }
        case .csv:
            console.line(CSV.row(SampleFormatter.csvHeader))
            for sample in samples { console.line(formatter.csv(sample)) }
        case .table:
            if samples.isEmpty {
                console.note("No \(type.name) samples in this range.")
                return
            }
            let metadata = MetadataColumn(samples.map(\.metadata))
            var table = TableWriter(headers: metadata.headers(SampleFormatter.tableHeaders), rightAligned: [2])
            for sample in samples { table.add(metadata.row(formatter.tableRow(sample), sample.metadata)) }
            for line in table.lines() { console.line(line) }
        }
    }
}
