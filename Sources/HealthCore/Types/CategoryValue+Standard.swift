extension CategoryValue {
    /// Sleep stages with HealthKit's raw values; `asleepUnspecified` was called `asleep` before iOS 16.
    public static let sleepAnalysis: [CategoryValue] = [
        CategoryValue(rawValue: 0, name: "inBed", exportNames: ["HKCategoryValueSleepAnalysisInBed"], aliases: ["inbed", "bed"]),
        CategoryValue(rawValue: 1, name: "asleepUnspecified",
                      exportNames: ["HKCategoryValueSleepAnalysisAsleepUnspecified", "HKCategoryValueSleepAnalysisAsleep"],
                      aliases: ["asleep", "sleep", "unspecified"], countsAsAsleep: true),
        CategoryValue(rawValue: 2, name: "awake", exportNames: ["HKCategoryValueSleepAnalysisAwake"], aliases: ["awake"]),
        CategoryValue(rawValue: 3, name: "asleepCore", exportNames: ["HKCategoryValueSleepAnalysisAsleepCore"],
                      aliases: ["core", "light"], countsAsAsleep: true),
        CategoryValue(rawValue: 4, name: "asleepDeep", exportNames: ["HKCategoryValueSleepAnalysisAsleepDeep"],
                      aliases: ["deep"], countsAsAsleep: true),
        CategoryValue(rawValue: 5, name: "asleepREM", exportNames: ["HKCategoryValueSleepAnalysisAsleepREM"],
                      aliases: ["rem"], countsAsAsleep: true),
    ]

    /// The single value of types that carry none, such as mindful sessions (`HKCategoryValue.notApplicable`).
    public static let notApplicable: [CategoryValue] = [
        CategoryValue(rawValue: 0, name: "notApplicable", exportNames: ["HKCategoryValueNotApplicable"], aliases: ["na"]),
    ]

    /// Apple stand hours.
    public static let standHour: [CategoryValue] = [
        CategoryValue(rawValue: 0, name: "stood", exportNames: ["HKCategoryValueAppleStandHourStood"], aliases: ["stood"]),
        CategoryValue(rawValue: 1, name: "idle", exportNames: ["HKCategoryValueAppleStandHourIdle"], aliases: ["idle"]),
    ]

    /// Symptom severity (`HKCategoryValueSeverity`), used by headache and other symptoms.
    public static let severity: [CategoryValue] = [
        CategoryValue(rawValue: 0, name: "unspecified", exportNames: ["HKCategoryValueSeverityUnspecified"], aliases: ["unspecified", "yes"]),
        CategoryValue(rawValue: 1, name: "notPresent", exportNames: ["HKCategoryValueSeverityNotPresent"], aliases: ["none", "notpresent"]),
        CategoryValue(rawValue: 2, name: "mild", exportNames: ["HKCategoryValueSeverityMild"], aliases: ["mild"]),
        CategoryValue(rawValue: 3, name: "moderate", exportNames: ["HKCategoryValueSeverityModerate"], aliases: ["moderate"]),
        CategoryValue(rawValue: 4, name: "severe", exportNames: ["HKCategoryValueSeveritySevere"], aliases: ["severe"]),
    ]

    /// Menstrual flow (`HKCategoryValueMenstrualFlow`, raw values 1…5).
    public static let menstrualFlow: [CategoryValue] = [
        CategoryValue(rawValue: 1, name: "unspecified", exportNames: ["HKCategoryValueMenstrualFlowUnspecified"], aliases: ["unspecified", "yes"]),
        CategoryValue(rawValue: 2, name: "light", exportNames: ["HKCategoryValueMenstrualFlowLight"], aliases: ["light"]),
        CategoryValue(rawValue: 3, name: "medium", exportNames: ["HKCategoryValueMenstrualFlowMedium"], aliases: ["medium"]),
        CategoryValue(rawValue: 4, name: "heavy", exportNames: ["HKCategoryValueMenstrualFlowHeavy"], aliases: ["heavy"]),
        CategoryValue(rawValue: 5, name: "none", exportNames: ["HKCategoryValueMenstrualFlowNone"], aliases: ["none"]),
    ]
}
