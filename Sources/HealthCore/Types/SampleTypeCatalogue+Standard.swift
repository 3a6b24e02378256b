extension SampleTypeCatalogue {
    /// Unit strings parsed so far while the standard catalogue is built: most types share a handful of units,
    /// and each is parsed once (every command builds the catalogue at start-up).
    private final class ParsedUnits {
        private var known: [(text: String, unit: HealthUnit)] = []

        func unit(_ text: String) -> HealthUnit {
            if let found = known.first(where: { $0.text == text }) { return found.unit }
            let unit = try! HealthUnit(parsing: text)
            known.append((text, unit))
            return unit
        }
    }

    private static func q(_ suffix: String, _ name: String, _ title: String, _ aggregation: AggregationStyle,
                          _ unit: String, display: String? = nil, _ examples: [String], _ range: ClosedRange<Double>,
                          _ units: ParsedUnits) -> SampleType {
        let canonical = units.unit(unit)
        return .quantity("HKQuantityTypeIdentifier" + suffix, name: name, title: title, aggregation: aggregation,
                         canonicalUnit: canonical, displayUnit: display.map(units.unit) ?? canonical, examples: examples,
                         validRange: range)
    }

    private static func c(_ suffix: String, _ name: String, _ title: String, _ values: [CategoryValue],
                          _ examples: [String], maximumHours: Double? = nil) -> SampleType {
        .category("HKCategoryTypeIdentifier" + suffix, name: name, title: title, values: values, examples: examples,
                  maximumDuration: maximumHours.map { $0 * 3600 })
    }

    /// The types hkctl ships with: HealthKit's identifiers, aggregation styles and canonical units
    /// (`hkctl types` lists them). Valid ranges are per sample, in the canonical unit, and only catch typing mistakes.
    public static let standard: SampleTypeCatalogue = {
        let u = ParsedUnits()
        return SampleTypeCatalogue([
            // Body and vitals
            q("DietaryWater", "water", "Water", .cumulative, "mL", ["500mL", "0.5L", "16.9fl_oz_us"], 0...20_000, u),
            q("StepCount", "steps", "Steps", .cumulative, "count", ["8000"], 0...1_000_000, u),
            q("BodyMass", "weight", "Weight", .discreteArithmetic, "kg", ["72.4kg", "160lb", "11st"], 0.5...700, u),
            q("Height", "height", "Height", .discreteArithmetic, "m", display: "cm", ["178cm", "1.78m", "70in"], 0.2...3, u),
            q("BodyMassIndex", "bmi", "Body mass index", .discreteArithmetic, "count", ["22.5"], 5...150, u),
            q("BodyFatPercentage", "body-fat", "Body fat", .discreteArithmetic, "%", ["21.5%"], 0.01...0.8, u),
            q("LeanBodyMass", "lean-mass", "Lean body mass", .discreteArithmetic, "kg", ["55kg", "121lb"], 1...500, u),
            q("WaistCircumference", "waist", "Waist circumference", .discreteArithmetic, "m", display: "cm", ["82cm", "32in"], 0.2...3, u),
            q("HeartRate", "heart-rate", "Heart rate", .discreteTemporallyWeighted, "count/s", display: "count/min",
              ["72bpm", "72count/min"], (15.0 / 60)...(300.0 / 60), u),
            q("RestingHeartRate", "resting-heart-rate", "Resting heart rate", .discreteArithmetic, "count/min",
              ["58bpm"], 15...250, u),
            q("WalkingHeartRateAverage", "walking-heart-rate", "Walking heart rate average", .discreteArithmetic,
              "count/min", ["95bpm"], 20...250, u),
            q("HeartRateVariabilitySDNN", "hrv", "Heart rate variability (SDNN)", .discreteArithmetic, "ms", ["45ms"], 0...1000, u),
            q("OxygenSaturation", "spo2", "Blood oxygen", .discreteArithmetic, "%", ["97%"], 0.5...1, u),
            q("RespiratoryRate", "respiratory-rate", "Respiratory rate", .discreteArithmetic, "count/s", display: "count/min",
              ["15count/min", "15bpm"], (2.0 / 60)...(80.0 / 60), u),
            q("BodyTemperature", "body-temp", "Body temperature", .discreteArithmetic, "degC", ["36.8degC", "98.2degF"], 30...45, u),
            q("BasalBodyTemperature", "basal-body-temp", "Basal body temperature", .discreteArithmetic, "degC",
              ["36.4degC", "97.5degF"], 30...45, u),
            q("BloodGlucose", "glucose", "Blood glucose", .discreteArithmetic, "mg/dL",
              ["95mg/dL", "5.3mmol<180.1558800000541>/L"], 10...1500, u),
            q("BloodPressureSystolic", "systolic", "Blood pressure (systolic)", .discreteArithmetic, "mmHg", ["120mmHg"], 40...300, u),
            q("BloodPressureDiastolic", "diastolic", "Blood pressure (diastolic)", .discreteArithmetic, "mmHg", ["80mmHg"], 20...200, u),
            q("VO2Max", "vo2max", "Cardio fitness (VO2 max)", .discreteArithmetic, "mL/(kg*min)", ["42mL/(kg*min)"], 5...100, u),
            // Activity
            q("ActiveEnergyBurned", "active-energy", "Active energy", .cumulative, "kcal", ["350kcal", "1200kJ"], 0...20_000, u),
            q("BasalEnergyBurned", "basal-energy", "Resting energy", .cumulative, "kcal", ["1650kcal"], 0...20_000, u),
            q("DistanceWalkingRunning", "distance", "Walking + running distance", .cumulative, "m", display: "km",
              ["5.2km", "3.1mi"], 0...500_000, u),
            q("DistanceCycling", "cycling", "Cycling distance", .cumulative, "m", display: "km", ["20km", "12mi"], 0...1_000_000, u),
            q("DistanceSwimming", "swimming", "Swimming distance", .cumulative, "m", ["1500m", "1640yd"], 0...100_000, u),
            q("DistanceWheelchair", "wheelchair-distance", "Wheelchair distance", .cumulative, "m", display: "km", ["2km"], 0...500_000, u),
            q("PushCount", "pushes", "Wheelchair pushes", .cumulative, "count", ["1200"], 0...1_000_000, u),
            q("FlightsClimbed", "flights", "Flights climbed", .cumulative, "count", ["12"], 0...10_000, u),
            q("AppleExerciseTime", "exercise-time", "Exercise minutes", .cumulative, "min", ["30min", "0.5hr"], 0...1440, u),
            q("AppleStandTime", "stand-time", "Stand minutes", .cumulative, "min", ["5min"], 0...1440, u),
            q("AppleMoveTime", "move-time", "Move minutes", .cumulative, "min", ["45min"], 0...1440, u),
            q("TimeInDaylight", "daylight", "Time in daylight", .cumulative, "min", ["20min"], 0...1440, u),
            q("EnvironmentalAudioExposure", "noise", "Environmental sound levels", .discreteEquivalentContinuousLevel,
              "dBASPL", ["65dBASPL"], 0...200, u),
            q("HeadphoneAudioExposure", "headphone-audio", "Headphone audio levels", .discreteEquivalentContinuousLevel,
              "dBASPL", ["70dBASPL"], 0...200, u),
            // Nutrition
            q("DietaryEnergyConsumed", "dietary-energy", "Dietary energy", .cumulative, "kcal", ["650kcal", "650Cal"], 0...30_000, u),
            q("DietaryCaffeine", "caffeine", "Caffeine", .cumulative, "g", display: "mg", ["95mg"], 0...5, u),
            q("DietaryProtein", "protein", "Protein", .cumulative, "g", ["30g"], 0...1000, u),
            q("DietaryCarbohydrates", "carbs", "Carbohydrates", .cumulative, "g", ["45g"], 0...2000, u),
            q("DietaryFatTotal", "fat", "Total fat", .cumulative, "g", ["20g"], 0...1000, u),
            q("DietarySugar", "sugar", "Sugar", .cumulative, "g", ["25g"], 0...2000, u),
            q("DietaryFiber", "fiber", "Fiber", .cumulative, "g", ["8g"], 0...500, u),
            q("DietarySodium", "sodium", "Sodium", .cumulative, "g", display: "mg", ["500mg"], 0...100, u),
            q("NumberOfAlcoholicBeverages", "alcohol", "Alcoholic beverages", .cumulative, "count", ["1"], 0...100, u),
            // Categories
            c("SleepAnalysis", "sleep", "Sleep", CategoryValue.sleepAnalysis, ["23:10-07:05"], maximumHours: 24),
            c("MindfulSession", "mindful", "Mindful minutes", CategoryValue.notApplicable, ["08:00-08:10"], maximumHours: 24),
            c("AppleStandHour", "stand-hour", "Stand hours", CategoryValue.standHour, ["stood"], maximumHours: 1),
            c("Headache", "headache", "Headache", CategoryValue.severity, ["moderate"], maximumHours: 24 * 14),
            c("MenstrualFlow", "menstrual-flow", "Menstrual flow", CategoryValue.menstrualFlow, ["medium"], maximumHours: 24 * 2),
        ])
    }()
}
