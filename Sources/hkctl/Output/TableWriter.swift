import HealthCore

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
            row.enumerated().map { column, cell in
                let padding = String(repeating: " ", count: widths[column] - cell.count)
                if column == row.count - 1 && !rightAligned.contains(column) { return cell }
                return rightAligned.contains(column) ? padding + cell : cell + padding
            }.joined(separator: "  ")
        }
    }
}

/// CSV fields per RFC 4180.
enum CSV {
    static func row(_ fields: [String]) -> String {
        fields.map { field in
            // A byte scan: Foundation's substring search costs more than the rest of a small command.
            if field.utf8.contains(where: { $0 == 0x2C || $0 == 0x22 || $0 == 0x0A || $0 == 0x0D }) {
                return "\"" + field.replacingEvery("\"", with: "\"\"") + "\""
            }
            return field
        }.joined(separator: ",")
    }
}
