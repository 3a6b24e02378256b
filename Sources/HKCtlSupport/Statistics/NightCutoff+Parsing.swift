import HealthCore

extension NightCutoff {
    /// Parses a cut-off as typed: `HH:MM` or `HH`.
    ///
    /// - Throws: ``HealthCore/StatisticsError/invalidNightCutoff(_:)`` for anything else.
    package init(parsing text: String) throws {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), parts.allSatisfy({ (1...2).contains($0.count) && $0.allSatisfy { $0.isASCII && $0.isNumber } }),
              let hour = Int(parts[0]), let minute = parts.count == 2 ? Int(parts[1]) : 0,
              (0...23).contains(hour), (0...59).contains(minute) else {
            throw StatisticsError.invalidNightCutoff(text)
        }
        try self.init(hour: hour, minute: minute)
    }
}
