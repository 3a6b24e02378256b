/// How often HealthKit may wake an app for new samples: HealthKit's `HKUpdateFrequency`, accepted for
/// ``HealthStore/enableBackgroundDelivery(for:frequency:)``.
public enum UpdateFrequency: Int, Sendable {
    /// As soon as possible.
    case immediate = 1
    /// At most once an hour.
    case hourly = 2
    /// At most once a day.
    case daily = 3
    /// At most once a week.
    case weekly = 4
}

// MARK: - Background delivery, as HealthKit's HKHealthStore has it

extension HealthStore {
    /// HealthKit's `enableBackgroundDelivery(for:frequency:)`. There is no app for the system to wake here: an
    /// ``ObserverQuery`` is told of every change while its process runs, whatever the frequency, so this does nothing
    /// and succeeds.
    public func enableBackgroundDelivery(for type: SampleType, frequency: UpdateFrequency) async throws {}

    /// The completion-handler form of ``enableBackgroundDelivery(for:frequency:)``: calls back `(true, nil)`.
    public func enableBackgroundDelivery(for type: SampleType, frequency: UpdateFrequency,
                                         withCompletion completion: @escaping @Sendable (Bool, Error?) -> Void) {
        completion(true, nil)
    }

    /// HealthKit's `disableBackgroundDelivery(for:)`: does nothing and succeeds (see
    /// ``enableBackgroundDelivery(for:frequency:)``).
    public func disableBackgroundDelivery(for type: SampleType) async throws {}
}
