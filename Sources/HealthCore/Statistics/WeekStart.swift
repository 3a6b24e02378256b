import Foundation

/// The first day of the week, from the user's locale.
public enum WeekStart {
    /// The first weekday (1 = Sunday … 7 = Saturday) of the POSIX locale named by `LC_ALL`, `LC_TIME` or `LANG`
    /// (the first one set), as the locale's conventions have it: `en_US.UTF-8` gives Sunday, `fr_FR.UTF-8@euro`
    /// Monday.
    ///
    /// - Parameter environment: The process environment.
    /// - Returns: The weekday, or nil when no locale is set or it is `C` or `POSIX` (keep the default, Monday).
    public static func firstWeekday(environment: [String: String]) -> Int? {
        guard let value = ["LC_ALL", "LC_TIME", "LANG"].lazy.compactMap({ environment[$0] }).first(where: { !$0.isEmpty })
        else { return nil }
        let identifier = String(value.prefix { $0 != "." && $0 != "@" })
        guard !identifier.isEmpty, identifier != "C", identifier != "POSIX" else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.locale = Locale(identifier: identifier)
        return calendar.firstWeekday
    }
}
