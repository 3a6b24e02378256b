import HealthCore
import TextSupport

/// `hkctl types workouts`: every workout activity type with its raw value and short forms.
enum WorkoutTypesOutput {
    static func print(context: CommandContext) {
        let console = context.console
        let types = WorkoutActivityType.all
        func forms(_ type: WorkoutActivityType) -> [String] { ([type.kebabName] + type.aliases).filter { $0 != type.name } }
        switch context.globals.format {
        case .json:
            console.line("[" + types.map { type in
                "{\"name\":\(JSONText.quoted(type.name)),\"rawValue\":\(type.rawValue),\"identifier\":\(JSONText.quoted(type.exportName)),"
                    + "\"shortForms\":[\(forms(type).map(JSONText.quoted).joined(separator: ","))],"
                    + "\"measuresDistance\":\(type.measuresDistance),\"deprecated\":\(type.isDeprecated)}"
            }.joined(separator: ",") + "]")
        case .csv:
            console.line("name,raw_value,identifier,short_forms")
            for type in types {
                console.line(CSV.row([type.name, String(type.rawValue), type.exportName, forms(type).joined(separator: " ")]))
            }
        case .table:
            var table = TableWriter(headers: ["NAME", "RAW", "SHORT FORMS"], rightAligned: [1])
            for type in types {
                table.add([type.name + (type.isDeprecated ? " (deprecated)" : ""), String(type.rawValue), forms(type).joined(separator: ", ")])
            }
            for line in table.lines() { console.line(line) }
        }
    }
}
