import HealthCore
import TextSupport

/// Left-aligned text columns separated by two spaces; numeric columns right-aligned.
struct TableWriter {
    var headers: [String]
    var rightAligned: Set<Int> = []
    private(set) var rows: [[String]] = []

    init(headers: [String], rightAligned: Set<Int> = []) {
        self.headers = headers
        self.rightAligned = rightAligned
    }

    mutating func add(_ row: [String]) { rows.append(row) }

    func lines() -> [String] {
        let all = [headers] + rows
        let widths = headers.indices.map { column in all.map { $0[column].count }.max() ?? 0 }
        return all.map { row in
            var line = row.enumerated().map { column, cell in
                let padding = String(repeating: " ", count: widths[column] - cell.count)
                if column == row.count - 1 && !rightAligned.contains(column) { return cell }
                return rightAligned.contains(column) ? padding + cell : cell + padding
            }.joined(separator: "  ")
            // An empty last cell (a sample without metadata) leaves no trailing spaces.
            while line.hasSuffix(" ") { line.removeLast() }
            return line
        }
    }
}

/// CSV fields per RFC 4180.
enum CSV {
    /// The fields joined by commas; a field with a comma, a quote or a line break is quoted, its quotes doubled
    /// (RFC 4180).
    static func row(_ fields: [String]) -> String { CSVText.row(fields) }
}
