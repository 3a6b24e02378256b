import HealthCore

/// Errors from changing ``HealthCore/Settings`` by key.
package enum SettingsError: Error, Equatable, Sendable, CustomStringConvertible, LocalizedError {
    /// No such setting.
    case unknownKey(String)
    /// A value the setting does not take.
    case invalidValue(key: String, value: String)

    package var description: String {
        switch self {
        case let .unknownKey(key):
            return "Unknown setting '\(key)'; settings are 'unit.<type>' for a quantity type, such as 'unit.weight', and 'tz'."
        case let .invalidValue(key, value):
            return "The setting '\(key)' takes 'recorded' (each sample shown in the zone it was recorded in), not '\(value)'; "
                + "unset it to show samples in the system zone."
        }
    }

    package var errorDescription: String? { description }
}
