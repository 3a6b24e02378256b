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
    static func row(_ fields: [String]) -> String {
        // Built as bytes: appending strings one by one costs several hundred instructions each.
        // Each field read through its contiguous UTF-8 (`withUTF8`): walking a String's `utf8` view byte by byte
        // cost about 60 instructions a byte, a third of `list --format csv`'s output.
        var bytes: [UInt8] = []
        bytes.reserveCapacity(fields.reduce(fields.count + 8) { $0 + $1.utf8.count })
        for (index, field) in fields.enumerated() {
            if index > 0 { bytes.append(0x2C) }
            var field = field
            field.withUTF8 { utf8 in
                if utf8.contains(where: { $0 == 0x2C || $0 == 0x22 || $0 == 0x0A || $0 == 0x0D }) {
                    bytes.append(0x22)
                    for byte in utf8 {
                        if byte == 0x22 { bytes.append(0x22) }
                        bytes.append(byte)
                    }
                    bytes.append(0x22)
                } else {
                    bytes.append(contentsOf: utf8)
                }
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
