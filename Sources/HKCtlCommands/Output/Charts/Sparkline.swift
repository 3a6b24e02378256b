import HealthCore

/// A one-line chart of values: one character per value, its height the value's place between the smallest and
/// the largest (`▁▂▃▄▅▆▇█`, or `_.-~=+*#` in ASCII). A missing value is a space; equal values sit in the middle.
enum Sparkline {
    private static let unicodeLevels = Array("▁▂▃▄▅▆▇█")
    private static let asciiLevels = Array("_.-~=+*#")

    /// The sparkline of `values`.
    static func render(_ values: [Double?], unicode: Bool = true) -> String {
        let levels = unicode ? unicodeLevels : asciiLevels
        let present = values.compactMap { $0 }
        guard let low = present.min(), let high = present.max() else { return String(repeating: " ", count: values.count) }
        return String(values.map { value -> Character in
            guard let value else { return " " }
            if high - low < 1e-12 { return levels[levels.count / 2 - 1] }
            let index = Int(((value - low) / (high - low) * Double(levels.count - 1)).rounded())
            return levels[min(levels.count - 1, max(0, index))]
        })
    }
}
