extension WorkoutActivityType {
    /// The activity type with this Swift case name from ``all``.
    private static func activityNamed(_ name: String) -> WorkoutActivityType {
        guard let type = all.first(where: { $0.name == name }) else { preconditionFailure("no activity type '\(name)'") }
        return type
    }

    /// `HKWorkoutActivityType.americanFootball` (raw value 1).
    public static var americanFootball: WorkoutActivityType { activityNamed("americanFootball") }
    /// `HKWorkoutActivityType.archery` (raw value 2).
    public static var archery: WorkoutActivityType { activityNamed("archery") }
    /// `HKWorkoutActivityType.australianFootball` (raw value 3).
    public static var australianFootball: WorkoutActivityType { activityNamed("australianFootball") }
    /// `HKWorkoutActivityType.badminton` (raw value 4).
    public static var badminton: WorkoutActivityType { activityNamed("badminton") }
    /// `HKWorkoutActivityType.baseball` (raw value 5).
    public static var baseball: WorkoutActivityType { activityNamed("baseball") }
    /// `HKWorkoutActivityType.basketball` (raw value 6).
    public static var basketball: WorkoutActivityType { activityNamed("basketball") }
    /// `HKWorkoutActivityType.bowling` (raw value 7).
    public static var bowling: WorkoutActivityType { activityNamed("bowling") }
    /// `HKWorkoutActivityType.boxing` (raw value 8).
    public static var boxing: WorkoutActivityType { activityNamed("boxing") }
    /// `HKWorkoutActivityType.climbing` (raw value 9).
    public static var climbing: WorkoutActivityType { activityNamed("climbing") }
    /// `HKWorkoutActivityType.cricket` (raw value 10).
    public static var cricket: WorkoutActivityType { activityNamed("cricket") }
    /// `HKWorkoutActivityType.crossTraining` (raw value 11).
    public static var crossTraining: WorkoutActivityType { activityNamed("crossTraining") }
    /// `HKWorkoutActivityType.curling` (raw value 12).
    public static var curling: WorkoutActivityType { activityNamed("curling") }
    /// `HKWorkoutActivityType.cycling` (raw value 13).
    public static var cycling: WorkoutActivityType { activityNamed("cycling") }
    /// `HKWorkoutActivityType.dance` (raw value 14).
    public static var dance: WorkoutActivityType { activityNamed("dance") }
    /// `HKWorkoutActivityType.danceInspiredTraining` (raw value 15).
    public static var danceInspiredTraining: WorkoutActivityType { activityNamed("danceInspiredTraining") }
    /// `HKWorkoutActivityType.elliptical` (raw value 16).
    public static var elliptical: WorkoutActivityType { activityNamed("elliptical") }
    /// `HKWorkoutActivityType.equestrianSports` (raw value 17).
    public static var equestrianSports: WorkoutActivityType { activityNamed("equestrianSports") }
    /// `HKWorkoutActivityType.fencing` (raw value 18).
    public static var fencing: WorkoutActivityType { activityNamed("fencing") }
    /// `HKWorkoutActivityType.fishing` (raw value 19).
    public static var fishing: WorkoutActivityType { activityNamed("fishing") }
    /// `HKWorkoutActivityType.functionalStrengthTraining` (raw value 20).
    public static var functionalStrengthTraining: WorkoutActivityType { activityNamed("functionalStrengthTraining") }
    /// `HKWorkoutActivityType.golf` (raw value 21).
    public static var golf: WorkoutActivityType { activityNamed("golf") }
    /// `HKWorkoutActivityType.gymnastics` (raw value 22).
    public static var gymnastics: WorkoutActivityType { activityNamed("gymnastics") }
    /// `HKWorkoutActivityType.handball` (raw value 23).
    public static var handball: WorkoutActivityType { activityNamed("handball") }
    /// `HKWorkoutActivityType.hiking` (raw value 24).
    public static var hiking: WorkoutActivityType { activityNamed("hiking") }
    /// `HKWorkoutActivityType.hockey` (raw value 25).
    public static var hockey: WorkoutActivityType { activityNamed("hockey") }
    /// `HKWorkoutActivityType.hunting` (raw value 26).
    public static var hunting: WorkoutActivityType { activityNamed("hunting") }
    /// `HKWorkoutActivityType.lacrosse` (raw value 27).
    public static var lacrosse: WorkoutActivityType { activityNamed("lacrosse") }
    /// `HKWorkoutActivityType.martialArts` (raw value 28).
    public static var martialArts: WorkoutActivityType { activityNamed("martialArts") }
    /// `HKWorkoutActivityType.mindAndBody` (raw value 29).
    public static var mindAndBody: WorkoutActivityType { activityNamed("mindAndBody") }
    /// `HKWorkoutActivityType.mixedMetabolicCardioTraining` (raw value 30).
    public static var mixedMetabolicCardioTraining: WorkoutActivityType { activityNamed("mixedMetabolicCardioTraining") }
    /// `HKWorkoutActivityType.paddleSports` (raw value 31).
    public static var paddleSports: WorkoutActivityType { activityNamed("paddleSports") }
    /// `HKWorkoutActivityType.play` (raw value 32).
    public static var play: WorkoutActivityType { activityNamed("play") }
    /// `HKWorkoutActivityType.preparationAndRecovery` (raw value 33).
    public static var preparationAndRecovery: WorkoutActivityType { activityNamed("preparationAndRecovery") }
    /// `HKWorkoutActivityType.racquetball` (raw value 34).
    public static var racquetball: WorkoutActivityType { activityNamed("racquetball") }
    /// `HKWorkoutActivityType.rowing` (raw value 35).
    public static var rowing: WorkoutActivityType { activityNamed("rowing") }
    /// `HKWorkoutActivityType.rugby` (raw value 36).
    public static var rugby: WorkoutActivityType { activityNamed("rugby") }
    /// `HKWorkoutActivityType.running` (raw value 37).
    public static var running: WorkoutActivityType { activityNamed("running") }
    /// `HKWorkoutActivityType.sailing` (raw value 38).
    public static var sailing: WorkoutActivityType { activityNamed("sailing") }
    /// `HKWorkoutActivityType.skatingSports` (raw value 39).
    public static var skatingSports: WorkoutActivityType { activityNamed("skatingSports") }
    /// `HKWorkoutActivityType.snowSports` (raw value 40).
    public static var snowSports: WorkoutActivityType { activityNamed("snowSports") }
    /// `HKWorkoutActivityType.soccer` (raw value 41).
    public static var soccer: WorkoutActivityType { activityNamed("soccer") }
    /// `HKWorkoutActivityType.softball` (raw value 42).
    public static var softball: WorkoutActivityType { activityNamed("softball") }
    /// `HKWorkoutActivityType.squash` (raw value 43).
    public static var squash: WorkoutActivityType { activityNamed("squash") }
    /// `HKWorkoutActivityType.stairClimbing` (raw value 44).
    public static var stairClimbing: WorkoutActivityType { activityNamed("stairClimbing") }
    /// `HKWorkoutActivityType.surfingSports` (raw value 45).
    public static var surfingSports: WorkoutActivityType { activityNamed("surfingSports") }
    /// `HKWorkoutActivityType.swimming` (raw value 46).
    public static var swimming: WorkoutActivityType { activityNamed("swimming") }
    /// `HKWorkoutActivityType.tableTennis` (raw value 47).
    public static var tableTennis: WorkoutActivityType { activityNamed("tableTennis") }
    /// `HKWorkoutActivityType.tennis` (raw value 48).
    public static var tennis: WorkoutActivityType { activityNamed("tennis") }
    /// `HKWorkoutActivityType.trackAndField` (raw value 49).
    public static var trackAndField: WorkoutActivityType { activityNamed("trackAndField") }
    /// `HKWorkoutActivityType.traditionalStrengthTraining` (raw value 50).
    public static var traditionalStrengthTraining: WorkoutActivityType { activityNamed("traditionalStrengthTraining") }
    /// `HKWorkoutActivityType.volleyball` (raw value 51).
    public static var volleyball: WorkoutActivityType { activityNamed("volleyball") }
    /// `HKWorkoutActivityType.walking` (raw value 52).
    public static var walking: WorkoutActivityType { activityNamed("walking") }
    /// `HKWorkoutActivityType.waterFitness` (raw value 53).
    public static var waterFitness: WorkoutActivityType { activityNamed("waterFitness") }
    /// `HKWorkoutActivityType.waterPolo` (raw value 54).
    public static var waterPolo: WorkoutActivityType { activityNamed("waterPolo") }
    /// `HKWorkoutActivityType.waterSports` (raw value 55).
    public static var waterSports: WorkoutActivityType { activityNamed("waterSports") }
    /// `HKWorkoutActivityType.wrestling` (raw value 56).
    public static var wrestling: WorkoutActivityType { activityNamed("wrestling") }
    /// `HKWorkoutActivityType.yoga` (raw value 57).
    public static var yoga: WorkoutActivityType { activityNamed("yoga") }
    /// `HKWorkoutActivityType.barre` (raw value 58).
    public static var barre: WorkoutActivityType { activityNamed("barre") }
    /// `HKWorkoutActivityType.coreTraining` (raw value 59).
    public static var coreTraining: WorkoutActivityType { activityNamed("coreTraining") }
    /// `HKWorkoutActivityType.crossCountrySkiing` (raw value 60).
    public static var crossCountrySkiing: WorkoutActivityType { activityNamed("crossCountrySkiing") }
    /// `HKWorkoutActivityType.downhillSkiing` (raw value 61).
    public static var downhillSkiing: WorkoutActivityType { activityNamed("downhillSkiing") }
    /// `HKWorkoutActivityType.flexibility` (raw value 62).
    public static var flexibility: WorkoutActivityType { activityNamed("flexibility") }
    /// `HKWorkoutActivityType.highIntensityIntervalTraining` (raw value 63).
    public static var highIntensityIntervalTraining: WorkoutActivityType { activityNamed("highIntensityIntervalTraining") }
    /// `HKWorkoutActivityType.jumpRope` (raw value 64).
    public static var jumpRope: WorkoutActivityType { activityNamed("jumpRope") }
    /// `HKWorkoutActivityType.kickboxing` (raw value 65).
    public static var kickboxing: WorkoutActivityType { activityNamed("kickboxing") }
    /// `HKWorkoutActivityType.pilates` (raw value 66).
    public static var pilates: WorkoutActivityType { activityNamed("pilates") }
    /// `HKWorkoutActivityType.snowboarding` (raw value 67).
    public static var snowboarding: WorkoutActivityType { activityNamed("snowboarding") }
    /// `HKWorkoutActivityType.stairs` (raw value 68).
    public static var stairs: WorkoutActivityType { activityNamed("stairs") }
    /// `HKWorkoutActivityType.stepTraining` (raw value 69).
    public static var stepTraining: WorkoutActivityType { activityNamed("stepTraining") }
    /// `HKWorkoutActivityType.wheelchairWalkPace` (raw value 70).
    public static var wheelchairWalkPace: WorkoutActivityType { activityNamed("wheelchairWalkPace") }
    /// `HKWorkoutActivityType.wheelchairRunPace` (raw value 71).
    public static var wheelchairRunPace: WorkoutActivityType { activityNamed("wheelchairRunPace") }
    /// `HKWorkoutActivityType.taiChi` (raw value 72).
    public static var taiChi: WorkoutActivityType { activityNamed("taiChi") }
    /// `HKWorkoutActivityType.mixedCardio` (raw value 73).
    public static var mixedCardio: WorkoutActivityType { activityNamed("mixedCardio") }
    /// `HKWorkoutActivityType.handCycling` (raw value 74).
    public static var handCycling: WorkoutActivityType { activityNamed("handCycling") }
    /// `HKWorkoutActivityType.discSports` (raw value 75).
    public static var discSports: WorkoutActivityType { activityNamed("discSports") }
    /// `HKWorkoutActivityType.fitnessGaming` (raw value 76).
    public static var fitnessGaming: WorkoutActivityType { activityNamed("fitnessGaming") }
    /// `HKWorkoutActivityType.cardioDance` (raw value 77).
    public static var cardioDance: WorkoutActivityType { activityNamed("cardioDance") }
    /// `HKWorkoutActivityType.socialDance` (raw value 78).
    public static var socialDance: WorkoutActivityType { activityNamed("socialDance") }
    /// `HKWorkoutActivityType.pickleball` (raw value 79).
    public static var pickleball: WorkoutActivityType { activityNamed("pickleball") }
    /// `HKWorkoutActivityType.cooldown` (raw value 80).
    public static var cooldown: WorkoutActivityType { activityNamed("cooldown") }
    /// `HKWorkoutActivityType.swimBikeRun` (raw value 82).
    public static var swimBikeRun: WorkoutActivityType { activityNamed("swimBikeRun") }
    /// `HKWorkoutActivityType.transition` (raw value 83).
    public static var transition: WorkoutActivityType { activityNamed("transition") }
    /// `HKWorkoutActivityType.underwaterDiving` (raw value 84).
    public static var underwaterDiving: WorkoutActivityType { activityNamed("underwaterDiving") }
    /// `HKWorkoutActivityType.other` (raw value 3000).
    public static var other: WorkoutActivityType { activityNamed("other") }
}
