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
        CategoryValue(rawValue: 1, name: "unspecified", exportNames: ["HKCategoryValueMenstrualFlowUnspecified", "HKCategoryValueVaginalBleedingUnspecified"], aliases: ["unspecified", "yes"]),
        CategoryValue(rawValue: 2, name: "light", exportNames: ["HKCategoryValueMenstrualFlowLight", "HKCategoryValueVaginalBleedingLight"], aliases: ["light"]),
        CategoryValue(rawValue: 3, name: "medium", exportNames: ["HKCategoryValueMenstrualFlowMedium", "HKCategoryValueVaginalBleedingMedium"], aliases: ["medium"]),
        CategoryValue(rawValue: 4, name: "heavy", exportNames: ["HKCategoryValueMenstrualFlowHeavy", "HKCategoryValueVaginalBleedingHeavy"], aliases: ["heavy"]),
        CategoryValue(rawValue: 5, name: "none", exportNames: ["HKCategoryValueMenstrualFlowNone", "HKCategoryValueVaginalBleedingNone"], aliases: ["none"]),
    ]

    /// Noise notifications (`HKCategoryValueEnvironmentalAudioExposureEvent`).
    public static let environmentalAudioExposureEvent: [CategoryValue] = [
        CategoryValue(rawValue: 1, name: "momentaryLimit", exportNames: ["HKCategoryValueEnvironmentalAudioExposureEventMomentaryLimit"], aliases: ["momentarylimit", "limit"]),
    ]

    /// Headphone notifications (`HKCategoryValueHeadphoneAudioExposureEvent`).
    public static let headphoneAudioExposureEvent: [CategoryValue] = [
        CategoryValue(rawValue: 1, name: "sevenDayLimit", exportNames: ["HKCategoryValueHeadphoneAudioExposureEventSevenDayLimit"], aliases: ["sevendaylimit", "limit"]),
    ]

    /// The deprecated audio exposure events (`HKCategoryValueAudioExposureEvent`, iOS 13).
    public static let audioExposureEvent: [CategoryValue] = [
        CategoryValue(rawValue: 1, name: "loudEnvironment", exportNames: ["HKCategoryValueAudioExposureEventLoudEnvironment"], aliases: ["loud", "loudenvironment"]),
    ]

    /// Low cardio fitness notifications (`HKCategoryValueLowCardioFitnessEvent`).
    public static let lowCardioFitnessEvent: [CategoryValue] = [
        CategoryValue(rawValue: 1, name: "lowFitness", exportNames: ["HKCategoryValueLowCardioFitnessEventLowFitness"], aliases: ["low", "lowfitness"]),
    ]

    /// Walking steadiness notifications (`HKCategoryValueAppleWalkingSteadinessEvent`).
    public static let appleWalkingSteadinessEvent: [CategoryValue] = [
        CategoryValue(rawValue: 1, name: "initialLow", exportNames: ["HKCategoryValueAppleWalkingSteadinessEventInitialLow"], aliases: ["low", "initiallow"]),
        CategoryValue(rawValue: 2, name: "initialVeryLow", exportNames: ["HKCategoryValueAppleWalkingSteadinessEventInitialVeryLow"], aliases: ["verylow", "initialverylow"]),
        CategoryValue(rawValue: 3, name: "repeatLow", exportNames: ["HKCategoryValueAppleWalkingSteadinessEventRepeatLow"], aliases: ["repeatlow"]),
        CategoryValue(rawValue: 4, name: "repeatVeryLow", exportNames: ["HKCategoryValueAppleWalkingSteadinessEventRepeatVeryLow"], aliases: ["repeatverylow"]),
    ]

    /// Vaginal bleeding (`HKCategoryValueVaginalBleeding`, the menstrual flow values), for bleeding during and after pregnancy and after menopause.
    public static let vaginalBleeding: [CategoryValue] = [
        CategoryValue(rawValue: 1, name: "unspecified", exportNames: ["HKCategoryValueVaginalBleedingUnspecified", "HKCategoryValueMenstrualFlowUnspecified"], aliases: ["unspecified", "yes"]),
        CategoryValue(rawValue: 2, name: "light", exportNames: ["HKCategoryValueVaginalBleedingLight", "HKCategoryValueMenstrualFlowLight"], aliases: ["light"]),
        CategoryValue(rawValue: 3, name: "medium", exportNames: ["HKCategoryValueVaginalBleedingMedium", "HKCategoryValueMenstrualFlowMedium"], aliases: ["medium"]),
        CategoryValue(rawValue: 4, name: "heavy", exportNames: ["HKCategoryValueVaginalBleedingHeavy", "HKCategoryValueMenstrualFlowHeavy"], aliases: ["heavy"]),
        CategoryValue(rawValue: 5, name: "none", exportNames: ["HKCategoryValueVaginalBleedingNone", "HKCategoryValueMenstrualFlowNone"], aliases: ["none"]),
    ]

    /// Cervical mucus quality (`HKCategoryValueCervicalMucusQuality`, raw values 1…5).
    public static let cervicalMucusQuality: [CategoryValue] = [
        CategoryValue(rawValue: 1, name: "dry", exportNames: ["HKCategoryValueCervicalMucusQualityDry"], aliases: ["dry"]),
        CategoryValue(rawValue: 2, name: "sticky", exportNames: ["HKCategoryValueCervicalMucusQualitySticky"], aliases: ["sticky"]),
        CategoryValue(rawValue: 3, name: "creamy", exportNames: ["HKCategoryValueCervicalMucusQualityCreamy"], aliases: ["creamy"]),
        CategoryValue(rawValue: 4, name: "watery", exportNames: ["HKCategoryValueCervicalMucusQualityWatery"], aliases: ["watery"]),
        CategoryValue(rawValue: 5, name: "eggWhite", exportNames: ["HKCategoryValueCervicalMucusQualityEggWhite"], aliases: ["eggwhite", "egg-white"]),
    ]

    /// Contraceptives (`HKCategoryValueContraceptive`, raw values 1…7).
    public static let contraceptive: [CategoryValue] = [
        CategoryValue(rawValue: 1, name: "unspecified", exportNames: ["HKCategoryValueContraceptiveUnspecified"], aliases: ["unspecified", "yes"]),
        CategoryValue(rawValue: 2, name: "implant", exportNames: ["HKCategoryValueContraceptiveImplant"], aliases: ["implant"]),
        CategoryValue(rawValue: 3, name: "injection", exportNames: ["HKCategoryValueContraceptiveInjection"], aliases: ["injection"]),
        CategoryValue(rawValue: 4, name: "intrauterineDevice", exportNames: ["HKCategoryValueContraceptiveIntrauterineDevice"], aliases: ["iud"]),
        CategoryValue(rawValue: 5, name: "intravaginalRing", exportNames: ["HKCategoryValueContraceptiveIntravaginalRing"], aliases: ["ring"]),
        CategoryValue(rawValue: 6, name: "oral", exportNames: ["HKCategoryValueContraceptiveOral"], aliases: ["oral", "pill"]),
        CategoryValue(rawValue: 7, name: "patch", exportNames: ["HKCategoryValueContraceptivePatch"], aliases: ["patch"]),
    ]

    /// Ovulation test results (`HKCategoryValueOvulationTestResult`; `luteinizingHormoneSurge` was `positive` before iOS 13).
    public static let ovulationTestResult: [CategoryValue] = [
        CategoryValue(rawValue: 1, name: "negative", exportNames: ["HKCategoryValueOvulationTestResultNegative"], aliases: ["negative"]),
        CategoryValue(rawValue: 2, name: "luteinizingHormoneSurge", exportNames: ["HKCategoryValueOvulationTestResultLuteinizingHormoneSurge", "HKCategoryValueOvulationTestResultPositive"], aliases: ["lhsurge", "positive"]),
        CategoryValue(rawValue: 3, name: "indeterminate", exportNames: ["HKCategoryValueOvulationTestResultIndeterminate"], aliases: ["indeterminate"]),
        CategoryValue(rawValue: 4, name: "estrogenSurge", exportNames: ["HKCategoryValueOvulationTestResultEstrogenSurge"], aliases: ["estrogensurge"]),
    ]

    /// Pregnancy test results (`HKCategoryValuePregnancyTestResult`).
    public static let pregnancyTestResult: [CategoryValue] = [
        CategoryValue(rawValue: 1, name: "negative", exportNames: ["HKCategoryValuePregnancyTestResultNegative"], aliases: ["negative"]),
        CategoryValue(rawValue: 2, name: "positive", exportNames: ["HKCategoryValuePregnancyTestResultPositive"], aliases: ["positive"]),
        CategoryValue(rawValue: 3, name: "indeterminate", exportNames: ["HKCategoryValuePregnancyTestResultIndeterminate"], aliases: ["indeterminate"]),
    ]

    /// Progesterone test results (`HKCategoryValueProgesteroneTestResult`).
    public static let progesteroneTestResult: [CategoryValue] = [
        CategoryValue(rawValue: 1, name: "negative", exportNames: ["HKCategoryValueProgesteroneTestResultNegative"], aliases: ["negative"]),
        CategoryValue(rawValue: 2, name: "positive", exportNames: ["HKCategoryValueProgesteroneTestResultPositive"], aliases: ["positive"]),
        CategoryValue(rawValue: 3, name: "indeterminate", exportNames: ["HKCategoryValueProgesteroneTestResultIndeterminate"], aliases: ["indeterminate"]),
    ]

    /// Appetite changes (`HKCategoryValueAppetiteChanges`).
    public static let appetiteChanges: [CategoryValue] = [
        CategoryValue(rawValue: 0, name: "unspecified", exportNames: ["HKCategoryValueAppetiteChangesUnspecified"], aliases: ["unspecified", "yes"]),
        CategoryValue(rawValue: 1, name: "noChange", exportNames: ["HKCategoryValueAppetiteChangesNoChange"], aliases: ["nochange", "none"]),
        CategoryValue(rawValue: 2, name: "decreased", exportNames: ["HKCategoryValueAppetiteChangesDecreased"], aliases: ["decreased"]),
        CategoryValue(rawValue: 3, name: "increased", exportNames: ["HKCategoryValueAppetiteChangesIncreased"], aliases: ["increased"]),
    ]

    /// Presence (`HKCategoryValuePresence`), for mood and sleep changes.
    public static let presence: [CategoryValue] = [
        CategoryValue(rawValue: 0, name: "present", exportNames: ["HKCategoryValuePresencePresent"], aliases: ["present", "yes"]),
        CategoryValue(rawValue: 1, name: "notPresent", exportNames: ["HKCategoryValuePresenceNotPresent"], aliases: ["notpresent", "none"]),
    ]
}
