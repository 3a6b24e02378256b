import TextSupport

/// Figures hkctl computes (sums, averages, changes, moving averages, percentages of a goal) as JSON and CSV write
/// them: rounded to two more decimals than tables show for their unit, so that arithmetic noise
/// (`-0.20000000000000284`) never reaches a script while every digit a person could mean is kept.
///
/// Whole units (steps, mL, kcal, bpm) get 2 decimals, one-decimal units (kg, lb, fl oz) 3, other units 4, a
/// percentage (a fraction, shown in percent to 0.1) 5 as a fraction; seconds 3 (milliseconds, the precision of
/// dates); ratios 4. Stored values (`list`, `changes`, `export`) are never rounded.
enum DerivedFigure {
    /// The decimals a derived figure in the unit spelled `unitString` (HealthKit's spelling) keeps.
    static func decimals(unitString: String?) -> Int {
        guard let unitString, !unitString.isEmpty else { return 2 }
        if unitString == "%" { return 5 }
        if unitString == "s" { return 3 }
        return ChartFormat.fractionDigits(forUnitString: unitString) + 2
    }

    /// `value` rounded to `decimals` places; unchanged when the scaled value would not be exact in a double.
    static func rounded(_ value: Double, decimals: Int) -> Double {
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let scaled = value * scale
        guard value.isFinite, abs(scaled) < 9e15 else { return value }
        let result = scaled.rounded() / scale
        return result == 0 ? 0 : result  // no `-0`
    }

    /// A derived figure in `unitString` as JSON or CSV text: `72.1`, `-0.2`, `8002.5`.
    static func text(_ value: Double, unitString: String?) -> String {
        text(value, decimals: decimals(unitString: unitString))
    }

    /// A derived figure rounded to `decimals` (``decimals(unitString:)`` of its unit) as JSON or CSV text.
    static func text(_ value: Double, decimals: Int) -> String {
        NumberFormatting.json(rounded(value, decimals: decimals))
    }

    /// A derived number of seconds: to the millisecond.
    static func seconds(_ value: Double) -> String { NumberFormatting.json(rounded(value, decimals: 3)) }

    /// A derived ratio (an efficiency, a share of a goal): 4 decimals.
    static func ratio(_ value: Double) -> String { NumberFormatting.json(rounded(value, decimals: 4)) }
}
