/// How a Health Auto Export metric name becomes a HealthKit type: its identifier and the shape of its points.
struct HAEMetricKind: Sendable, Equatable {
    /// How a metric's points are read.
    enum Shape: String, Sendable {
        /// `{"date", "qty", "source"}`: one quantity sample.
        case quantity
        /// `{"date", "Min", "Avg", "Max"}`: heart rate readings (see ``HAESampleBuilder``).
        case heartRate
        /// `{"date", "systolic", "diastolic"}`: a blood-pressure correlation.
        case bloodPressure
        /// `qty` with `mealTime` (`Before Meal`, `After Meal`, `Unspecified`).
        case bloodGlucose
        /// `qty` with `reason` (`Bolus`, `Basal`).
        case insulinDelivery
        /// Sleep, per stage (`startDate`, `endDate`, `value`) or per night (`asleep`, `inBed`, ...).
        case sleep
        /// `qty` minutes: a mindful session of that length.
        case mindful
        /// `qty` 1 per hour stood: an Apple stand hour.
        case standHour
        /// `qty` seconds with `value` (`Complete`, `Incomplete`): a handwashing or toothbrushing event.
        case event
        /// `Unspecified`, `Protection Used`, `Protection Not Used` counts: sexual activity events.
        case sexualActivity
    }

    var identifier: String
    var shape: Shape

    /// The kind of `name`, nil when HAE's name has no known HealthKit type.
    static func kind(of name: String) -> HAEMetricKind? { table[name] }

    /// The type a metric's points are of: its kind's HealthKit identifier, or `HealthAutoExport_<name>` for a name
    /// with no type yet.
    static func typeIdentifier(ofMetric name: String) -> String {
        kind(of: name)?.identifier ?? HAESampleBuilder.untypedPrefix + name
    }

    /// The name a metric's sync identifiers use: of the names of one kind (`caffeine` and `dietary_caffeine`, as app
    /// versions wrote it), the first in byte order, so that a point re-sent under the other name is the same point.
    /// An unknown name is its own.
    static func syncName(of name: String) -> String { canonical[name] ?? name }

    private static let canonical: [String: String] = {
        var first: [String: String] = [:]
        for (name, kind) in table {
            let key = kind.identifier + "\n" + kind.shape.rawValue
            if let known = first[key], Array(known.utf8).lexicographicallyPrecedes(Array(name.utf8)) { continue }
            first[key] = name
        }
        var canonical: [String: String] = [:]
        for (name, kind) in table { canonical[name] = first[kind.identifier + "\n" + kind.shape.rawValue] }
        return canonical
    }()

    private static func q(_ suffix: String) -> HAEMetricKind { HAEMetricKind(identifier: "HKQuantityTypeIdentifier" + suffix, shape: .quantity) }

    /// HAE's metric names (HealthyApps' `MetricName` list and names seen in real files) and their HealthKit types.
    static let table: [String: HAEMetricKind] = {
        var table: [String: HAEMetricKind] = [
            "heart_rate": HAEMetricKind(identifier: "HKQuantityTypeIdentifierHeartRate", shape: .heartRate),
            "blood_pressure": HAEMetricKind(identifier: "HKCorrelationTypeIdentifierBloodPressure", shape: .bloodPressure),
            "blood_glucose": HAEMetricKind(identifier: "HKQuantityTypeIdentifierBloodGlucose", shape: .bloodGlucose),
            "insulin_delivery": HAEMetricKind(identifier: "HKQuantityTypeIdentifierInsulinDelivery", shape: .insulinDelivery),
            "sleep_analysis": HAEMetricKind(identifier: "HKCategoryTypeIdentifierSleepAnalysis", shape: .sleep),
            "mindful_minutes": HAEMetricKind(identifier: "HKCategoryTypeIdentifierMindfulSession", shape: .mindful),
            "apple_stand_hour": HAEMetricKind(identifier: "HKCategoryTypeIdentifierAppleStandHour", shape: .standHour),
            "handwashing": HAEMetricKind(identifier: "HKCategoryTypeIdentifierHandwashingEvent", shape: .event),
            "toothbrushing": HAEMetricKind(identifier: "HKCategoryTypeIdentifierToothbrushingEvent", shape: .event),
            "sexual_activity": HAEMetricKind(identifier: "HKCategoryTypeIdentifierSexualActivity", shape: .sexualActivity),
        ]
        let quantities: [(String, String)] = [
            ("active_energy", "ActiveEnergyBurned"), ("alcohol_consumption", "NumberOfAlcoholicBeverages"),
            ("apple_exercise_time", "AppleExerciseTime"), ("apple_move_time", "AppleMoveTime"),
            ("apple_sleeping_wrist_temperature", "AppleSleepingWristTemperature"), ("apple_stand_time", "AppleStandTime"),
            ("apple_walking_steadiness", "AppleWalkingSteadiness"), ("atrial_fibrillation_burden", "AtrialFibrillationBurden"),
            ("basal_body_temperature", "BasalBodyTemperature"), ("basal_energy_burned", "BasalEnergyBurned"),
            ("blood_alcohol_content", "BloodAlcoholContent"), ("blood_oxygen_saturation", "OxygenSaturation"),
            ("body_fat_percentage", "BodyFatPercentage"), ("body_mass_index", "BodyMassIndex"),
            ("body_temperature", "BodyTemperature"), ("breathing_disturbances", "AppleSleepingBreathingDisturbances"),
            ("caffeine", "DietaryCaffeine"), ("calcium", "DietaryCalcium"), ("carbohydrates", "DietaryCarbohydrates"),
            ("cardio_recovery", "HeartRateRecoveryOneMinute"), ("chloride", "DietaryChloride"), ("chromium", "DietaryChromium"),
            ("copper", "DietaryCopper"), ("cycling_cadence", "CyclingCadence"), ("cycling_distance", "DistanceCycling"),
            ("cycling_functional_threshold_power", "CyclingFunctionalThresholdPower"), ("cycling_power", "CyclingPower"),
            ("cycling_speed", "CyclingSpeed"), ("dietary_biotin", "DietaryBiotin"), ("dietary_caffeine", "DietaryCaffeine"),
            ("dietary_cholesterol", "DietaryCholesterol"), ("dietary_energy", "DietaryEnergyConsumed"),
            ("dietary_sugar", "DietarySugar"), ("dietary_water", "DietaryWater"),
            ("distance_downhill_snow_sports", "DistanceDownhillSnowSports"), ("electrodermal_activity", "ElectrodermalActivity"),
            ("environmental_audio_exposure", "EnvironmentalAudioExposure"), ("fiber", "DietaryFiber"),
            ("flights_climbed", "FlightsClimbed"), ("folate", "DietaryFolate"),
            ("forced_expiratory_volume_1", "ForcedExpiratoryVolume1"), ("forced_vital_capacity", "ForcedVitalCapacity"),
            ("headphone_audio_exposure", "HeadphoneAudioExposure"), ("heart_rate_variability", "HeartRateVariabilitySDNN"),
            ("height", "Height"), ("inhaler_usage", "InhalerUsage"), ("iodine", "DietaryIodine"), ("iron", "DietaryIron"),
            ("lean_body_mass", "LeanBodyMass"), ("magnesium", "DietaryMagnesium"), ("manganese", "DietaryManganese"),
            ("molybdenum", "DietaryMolybdenum"), ("monounsaturated_fat", "DietaryFatMonounsaturated"),
            ("niacin", "DietaryNiacin"), ("number_of_times_fallen", "NumberOfTimesFallen"),
            ("pantothenic_acid", "DietaryPantothenicAcid"), ("peak_expiratory_flow_rate", "PeakExpiratoryFlowRate"),
            ("peripheral_perfusion_index", "PeripheralPerfusionIndex"), ("physical_effort", "PhysicalEffort"),
            ("polyunsaturated_fat", "DietaryFatPolyunsaturated"), ("potassium", "DietaryPotassium"),
            ("protein", "DietaryProtein"), ("push_count", "PushCount"), ("respiratory_rate", "RespiratoryRate"),
            ("resting_heart_rate", "RestingHeartRate"), ("riboflavin", "DietaryRiboflavin"),
            ("running_ground_contact_time", "RunningGroundContactTime"), ("running_power", "RunningPower"),
            ("running_speed", "RunningSpeed"), ("running_stride_length", "RunningStrideLength"),
            ("running_vertical_oscillation", "RunningVerticalOscillation"), ("saturated_fat", "DietaryFatSaturated"),
            ("selenium", "DietarySelenium"), ("six_minute_walking_test_distance", "SixMinuteWalkTestDistance"),
            ("sodium", "DietarySodium"), ("stair_speed_down", "StairDescentSpeed"), ("stair_speed_up", "StairAscentSpeed"),
            ("step_count", "StepCount"), ("swimming_distance", "DistanceSwimming"),
            ("swimming_stroke_count", "SwimmingStrokeCount"), ("thiamin", "DietaryThiamin"),
            ("time_in_daylight", "TimeInDaylight"), ("total_fat", "DietaryFatTotal"), ("underwater_depth", "UnderwaterDepth"),
            ("uv_exposure", "UVExposure"), ("vitamin_a", "DietaryVitaminA"), ("vitamin_b12", "DietaryVitaminB12"),
            ("vitamin_b6", "DietaryVitaminB6"), ("vitamin_c", "DietaryVitaminC"), ("vitamin_d", "DietaryVitaminD"),
            ("vitamin_e", "DietaryVitaminE"), ("vitamin_k", "DietaryVitaminK"), ("vo2_max", "VO2Max"),
            ("waist_circumference", "WaistCircumference"), ("walking_asymmetry_percentage", "WalkingAsymmetryPercentage"),
            ("walking_double_support_percentage", "WalkingDoubleSupportPercentage"),
            ("walking_heart_rate_average", "WalkingHeartRateAverage"), ("walking_running_distance", "DistanceWalkingRunning"),
            ("walking_speed", "WalkingSpeed"), ("walking_step_length", "WalkingStepLength"),
            ("water_temperature", "WaterTemperature"), ("weight_body_mass", "BodyMass"),
            ("wheelchair_distance", "DistanceWheelchair"), ("zinc", "DietaryZinc"),
            // Other spellings of the same metrics in HAE's own list (HealthyApps' MetricName, misspellings included).
            ("biotin", "DietaryBiotin"), ("cholesterol", "DietaryCholesterol"),
            ("downhill_snow_sports", "DistanceDownhillSnowSports"), ("environmental_audio", "EnvironmentalAudioExposure"),
            ("forced_expiratory_volume", "ForcedExpiratoryVolume1"), ("headphone_audio", "HeadphoneAudioExposure"),
            ("monosaturated_fat", "DietaryFatMonounsaturated"), ("number_of_alcoholic_beverages", "NumberOfAlcoholicBeverages"),
            ("number_of_time_fallen", "NumberOfTimesFallen"), ("swim_stroke_count", "SwimmingStrokeCount"),
            ("under_water_depth", "UnderwaterDepth"), ("under_water_temperature", "WaterTemperature"),
            ("walking_heart_rate", "WalkingHeartRateAverage"), ("wheelchair_push_count", "PushCount"),
        ]
        for (name, suffix) in quantities { table[name] = q(suffix) }
        return table
    }()

    /// HAE's unit string as a HealthKit unit string: most are the same; a few are spelt differently.
    static func healthKitUnit(_ units: String, identifier: String) -> String {
        switch units {
        case "bpm": return "count/min"
        case "mmol/L" where identifier == "HKQuantityTypeIdentifierBloodGlucose": return "mmol<180.15588000005408>/L"
        case "steps": return "count"
        default: return units
        }
    }
}
