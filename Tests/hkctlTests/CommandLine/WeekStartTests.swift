import Foundation
import Testing
import TestKit
@testable import HKCtlCommands

/// hkctl's own week data against ICU's, through Foundation (which the tests still link).
struct WeekStartTests {
    static let locales = [
        "en_US", "en_GB", "en_CA", "en_AU", "en_IN", "en_ZA", "fr_FR", "fr_CA", "de_DE", "de_AT", "es_ES", "es_MX",
        "pt_BR", "pt_PT", "it_IT", "nl_NL", "sv_SE", "fi_FI", "pl_PL", "ru_RU", "uk_UA", "tr_TR", "ja_JP", "ko_KR",
        "zh_CN", "zh_TW", "zh_HK", "th_TH", "id_ID", "he_IL", "ar_EG", "ar_SA", "ar_AE", "ar_MA", "fa_IR", "hi_IN",
        "bn_BD", "ur_PK", "dv_MV", "am_ET", "sw_KE", "en_SG", "ms_MY", "vi_VN", "en_NZ", "es_AR", "es_CO", "es_PE",
        "en", "fr", "de", "ja", "ko", "he", "ar", "fa", "pt", "hi", "th", "id", "zh", "es", "ru", "sv", "nl", "it",
        "ckb", "ti", "dv", "ps", "dz", "jo", "ar_JO", "ar_DZ", "fr_DZ", "ar_IQ", "ne_NP", "my_MM", "lo_LA",
    ]

    @Test(arguments: locales)
    func firstWeekdayMatchesICU(identifier: String) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.locale = Locale(identifier: identifier)
        expectEqual(WeekStart.firstWeekday(environment: ["LANG": identifier + ".UTF-8"]), calendar.firstWeekday, "\(identifier)")
    }

    @Test(arguments: [
        (["LANG": "en_US.UTF-8"], 1 as Int?), (["LANG": "fr_FR.UTF-8@euro"], 2), (["LC_ALL": "en_GB", "LANG": "en_US"], 2),
        (["LC_TIME": "en_US", "LANG": "de_DE.UTF-8"], 1), (["LANG": "C.UTF-8"], nil), (["LANG": "POSIX"], nil), ([:], nil),
    ])
    func weekStartFromTheLocale(environment: [String: String], weekday: Int?) {
        expectEqual(WeekStart.firstWeekday(environment: environment), weekday)
    }

    @Test(arguments: [("zh_Hant_TW", "TW"), ("sr_RS@latin", "RS"), ("de-AT", "AT"), ("en", "US"), ("xx", nil as String?)])
    func regionsOfLocaleNames(identifier: String, region: String?) {
        expectEqual(WeekStart.region(of: String(identifier.prefix { $0 != "@" })), region)
    }
}
