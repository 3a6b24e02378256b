import HealthCore
import HKCtlSupport
import TextSupport

/// `hkctl units [TYPE]`: the units a type accepts, and the unit grammar (`hkctl help units`).
enum UnitsCommand: Command {
    static let name = "units"
    static let abstract = "List the units a type accepts; 'hkctl help units' explains unit strings."
    static let usage = "units [<type>]"
    static let arguments: [(label: String, help: String)] = [
        ("<type>", "A type (default: every base unit hkctl knows)."),
    ]
    static let options: [OptionSpec] = []
    static let discussion = """
        UNIT STRINGS follow HealthKit's grammar (HKUnit(from:)):
          mass         g oz lb st, molar mol<M>
          length       m in ft yd mi
          volume       L fl_oz_us fl_oz_imp cup_us cup_imp pt_us pt_imp
          time         s min hr d
          energy       J cal kcal Cal
          temperature  K degC degF
          pressure     Pa mmHg cmAq atm inHg
          others       count % Hz S V W lx rad deg IU dBASPL dBHL D pD
          prefixes     p n mc m c d da h k M G T f, on g m L s J K Pa Hz S V W lx
                       rad mol (µ reads as mc): kg, mL, dL, mcg, ms, kJ, kPa
          products     * or . (printed as ·): kg*m
          quotients    one / per level: count/min, mg/dL, kcal/hr
          powers       ^ and a whole number: m/s^2, m^3
          grouping     parentheses: mL/(kg*min) (printed mL/min·kg)
          molar        mmol<180.1558800000541>/L: moles of molar mass M g/mol

        Units are case-sensitive except liter (L or l). Factors are exact: 1 lb = 0.45359237 kg,
        1 fl_oz_us = 29.5735295625 mL, 1 cup_us = 8 fl_oz_us, 1 st = 14 lb, 1 mi = 1609.344 m,
        1 kcal = 1 Cal = 4184 J, mmHg = 133.322387415 Pa. °C and °F convert with their offsets.

        PERCENT: HealthKit stores a percentage as a fraction. 'hkctl add body-fat 21.5%' stores
        0.215 with unit %, as Apple Health exports do; json and csv show 0.215, tables show 21.5 %.

        ALIASES (any case): ml, l, liter, floz (US fluid ounce), lbs, kgs, pound, stone, bpm
        (count/min), steps (count), h, hours, mins, sec, °C, °F, mmol/l, mg/dl. 'oz' is ounces of mass
        for mass types and US fluid ounces for volume types. 'cup' and 'pint' are refused for volumes
        because they could be US or imperial: write cup_us or cup_imp, pt_us or pt_imp.
        """

    static func run(_ arguments: ParsedArguments, context: CommandContext) throws {
        guard let typeName = arguments.positionals.first else {
            for spelling in ["g", "m", "L", "s", "J", "K", "Pa", "count", "%", "Hz", "S", "V", "W", "lx", "rad", "IU", "dBASPL", "dBHL", "D", "pD"] {
                let unit = try HealthUnit(parsing: spelling)
                context.console.line("\(unit.dimension): " + HealthUnit.spellings(compatibleWith: unit).joined(separator: " "))
            }
            return
        }
        let type = try context.type(typeName)
        guard let canonical = type.canonicalUnit else {
            throw UsageError(message: "\(type.name) has no units: its values are \(type.categoryValues.map(\.name).joined(separator: ", "))", command: name)
        }
        let units = HealthUnit.spellings(compatibleWith: canonical)
        let aliases = QuantityInput.aliases(for: type)
        switch context.globals.format {
        case .json:
            let list = units.map(JSONText.quoted).joined(separator: ",")
            let aliasList = aliases.map { "\(JSONText.quoted($0.alias)):\(JSONText.quoted($0.unit))" }.joined(separator: ",")
            context.console.line("{\"type\":\(JSONText.quoted(type.identifier)),\"canonical\":\(JSONText.quoted(canonical.unitString)),\"display\":\(JSONText.quoted(type.displayUnit?.unitString ?? canonical.unitString)),\"units\":[\(list)],\"aliases\":{\(aliasList)}}")
        case .csv:
            context.console.line("unit,alias_of")
            for unit in units { context.console.line(CSV.row([unit, ""])) }
            for alias in aliases { context.console.line(CSV.row([alias.alias, alias.unit])) }
        case .table:
            context.console.line("\(type.name) (\(type.identifier)): canonical \(canonical.unitString), shown in \(type.displayUnit?.unitString ?? canonical.unitString)")
            context.console.line("units:   " + units.joined(separator: " "))
            if !aliases.isEmpty {
                context.console.line("aliases: " + aliases.map { "\($0.alias)=\($0.unit)" }.joined(separator: " "))
            }
            context.console.line("e.g.:    " + type.examples.joined(separator: ", "))
        }
    }
}
