import HealthCore

/// The first day of the week, from the user's locale.
enum WeekStart {
    /// The first weekday (1 = Sunday … 7 = Saturday) of the POSIX locale named by `LC_ALL`, `LC_TIME` or `LANG`
    /// (the first one set), as the locale's conventions have it: `en_US.UTF-8` gives Sunday, `fr_FR.UTF-8@euro`
    /// Monday.
    ///
    /// The conventions are the Unicode CLDR's week data (the same as ICU's), by region: Sunday in the Americas'
    /// and Asia's Sunday regions, Saturday in much of the Middle East and North Africa, Friday in the Maldives,
    /// Monday elsewhere. A locale without a region (`en`, `ja`) uses the language's most likely region.
    ///
    /// - Parameter environment: The process environment.
    /// - Returns: The weekday, or nil when no locale is set or it is `C` or `POSIX` (keep the default, Monday).
    static func firstWeekday(environment: [String: String]) -> Int? {
        guard let value = ["LC_ALL", "LC_TIME", "LANG"].lazy.compactMap({ environment[$0] }).first(where: { !$0.isEmpty })
        else { return nil }
        let identifier = String(value.prefix { $0 != "." && $0 != "@" })
        guard !identifier.isEmpty, identifier != "C", identifier != "POSIX" else { return nil }
        return firstWeekday(region: region(of: identifier))
    }

    /// The first weekday in a region (ISO 3166 code, `US`), Monday when the region is unknown or nil.
    static func firstWeekday(region: String?) -> Int {
        guard let region else { return 2 }
        if sundayRegions.contains(region) { return 1 }
        if saturdayRegions.contains(region) { return 7 }
        if region == "MV" { return 6 }
        return 2
    }

    /// The region of a locale identifier (`en_US`, `zh_Hant_TW`, `de-AT`), or the language's most likely one.
    static func region(of identifier: String) -> String? {
        let parts = identifier.split(whereSeparator: { $0 == "_" || $0 == "-" })
        guard let language = parts.first else { return nil }
        if let region = parts.dropFirst().first(where: { $0.count == 2 && $0.allSatisfy { $0.isASCII && $0.isLetter } }) {
            return region.uppercased()
        }
        return likelyRegions[language.lowercased()]
    }

    /// CLDR `weekData`: regions whose weeks start on Sunday.
    private static let sundayRegions: Set<String> = [
        "AG", "AS", "BD", "BR", "BS", "BT", "BW", "BZ", "CA", "CN", "CO", "DM", "DO", "ET", "GT", "GU", "HK", "HN",
        "ID", "IL", "IN", "JM", "JO", "JP", "KE", "KH", "KR", "LA", "MH", "MM", "MO", "MT", "MX", "MZ", "NI", "NP",
        "PA", "PE", "PH", "PK", "PR", "PT", "PY", "SA", "SG", "SV", "TH", "TT", "TW", "UM", "US", "VE", "VI", "WS",
        "YE", "ZA", "ZW",
    ]

    /// CLDR `weekData`: regions whose weeks start on Saturday.
    private static let saturdayRegions: Set<String> = [
        "AF", "BH", "DJ", "EG", "IQ", "IR", "KW", "LY", "OM", "QA", "SD", "SY",
    ]

    /// CLDR likely subtags for languages whose most likely region does not start weeks on Monday (the others need
    /// no entry: Monday is the default).
    private static let likelyRegions: [String: String] = [
        "en": "US", "ja": "JP", "ko": "KR", "he": "IL", "iw": "IL", "hi": "IN", "bn": "BD", "pt": "BR", "th": "TH",
        "id": "ID", "in": "ID", "ar": "EG", "fa": "IR", "ps": "AF", "am": "ET", "my": "MM", "km": "KH", "lo": "LA",
        "ne": "NP", "ur": "PK", "fil": "PH", "tl": "PH", "dz": "BT", "mt": "MT", "sm": "WS", "zu": "ZA", "af": "ZA",
        "ta": "IN", "te": "IN", "mr": "IN", "gu": "IN", "kn": "IN", "ml": "IN", "pa": "IN", "dv": "MV", "zh": "CN",
        "ti": "ET", "sd": "PK", "ckb": "IQ", "syr": "IQ", "ug": "CN", "bo": "CN", "or": "IN", "as": "IN", "sa": "IN",
        "jv": "ID", "su": "ID",
    ]
}
