/// The one error HealthKit-shaped calls throw: HealthKit's `HKError`, with HealthKit's codes.
///
/// The `async` and completion-handler calls (saving and deleting objects, the query descriptors, the handler-based
/// queries, authorization requests, preferred units) throw a `HealthError`. Its ``code`` is HealthKit's, so code
/// written for HealthKit catches it unchanged:
///
/// ```swift
/// do {
///     let total = try await descriptor.result(for: store)
/// } catch HealthError.errorAuthorizationNotDetermined {
///     try await store.requestAuthorization(toShare: [water], read: [water])
/// } catch let error as HealthError {
///     print(error.localizedDescription)   // says what was wrong and how to fix it
/// }
/// ```
///
/// ``underlyingError`` keeps the detailed error of the area it came from (``StoreError`` with the file and line,
/// ``SampleError`` with the sample, ``UnitError`` with the units, ...). The synchronous calls throw those detailed
/// errors directly; ``HealthError/init(_:)`` gives the code for any of them.
public struct HealthError: Error, Sendable, CustomStringConvertible, LocalizedError {
    /// HealthKit's error codes (`HKError.Code`), with its raw values.
    public enum Code: Int, Sendable, CaseIterable {
        /// Something failed that no other code describes.
        case errorUnknown = 0
        /// There is no store to open (no home or data folder to put the default store in).
        case errorHealthDataUnavailable = 1
        /// Blocked by the system; not used by HealthCore.
        case errorHealthDataRestricted = 2
        /// A value, a unit, a date, a type or a uuid that the call cannot take.
        case errorInvalidArgument = 3
        /// The owner denied this source the type, or the call is the owner's alone.
        case errorAuthorizationDenied = 4
        /// This source never asked for the type, or the owner has not answered yet.
        case errorAuthorizationNotDetermined = 5
        /// The store cannot be read or written: locked by another process for too long, damaged, unreadable.
        case errorDatabaseInaccessible = 6
        /// The person cancelled; not used by HealthCore.
        case errorUserCanceled = 7
        /// Workout sessions: not used by HealthCore.
        case errorAnotherWorkoutSessionStarted = 8
        /// Workout sessions: not used by HealthCore.
        case errorUserExitedWorkoutSession = 9
        /// A required type was denied; not used by HealthCore.
        case errorRequiredAuthorizationDenied = 10
        /// Nothing matched the predicate.
        case errorNoData = 11
        /// Workout sessions: not used by HealthCore.
        case errorWorkoutActivityNotAllowed = 12
        /// A figure or an input is larger than the store can take (a sum that overflows, a line too long).
        case errorDataSizeExceeded = 13
        /// Workout sessions: not used by HealthCore.
        case errorBackgroundWorkoutSessionNotAllowed = 14
        /// Guest mode: not used by HealthCore.
        case errorNotPermissibleForGuestUserMode = 15
    }

    /// The error domain, as `HKErrorDomain`.
    public static let errorDomain = "com.apple.healthkit"

    /// What kind of failure, in HealthKit's terms.
    public let code: Code
    /// What was wrong and how to fix it, for a person to read.
    public let message: String
    /// The detailed error this one stands for, if any (``StoreError``, ``SampleError``, ``AuthorizationError``, ...).
    public let underlyingError: (any Error)?

    /// An error with a code and a message, as `HKError(_:)`.
    public init(_ code: Code, message: String? = nil) {
        self.code = code
        self.message = message ?? "\(code)"
        underlyingError = nil
    }

    /// The `HealthError` for any error: itself if it is one, else one whose code fits the detailed error (for
    /// example ``StoreError/busy(_:waitedSeconds:holders:)`` is ``Code/errorDatabaseInaccessible``) and whose
    /// message is the detailed error's.
    public init(_ error: any Error) {
        if let health = error as? HealthError {
            self = health
            return
        }
        code = (error as? HealthErrorCoded)?.healthErrorCode
            ?? (Self.isInvalidArgument(error) ? .errorInvalidArgument : .errorUnknown)
        message = "\(error)"
        underlyingError = error
    }

    /// The code's raw value, as `NSError.code`.
    public var errorCode: Int { code.rawValue }

    /// The message, as `localizedDescription`.
    public var localizedDescription: String { message }

    public var description: String { message }

    /// The message, so that `localizedDescription` of any `Error` holding this one says what to fix.
    public var errorDescription: String? { message }
}

extension HealthError {
    /// Whether `error` comes from an area whose every case is an argument the call cannot take (a value, a unit, a
    /// time, a name): HealthKit's `errorInvalidArgument`.
    static func isInvalidArgument(_ error: any Error) -> Bool {
        error is SampleError || error is UnitError || error is TextError || error is WorkoutError
            || error is CorrelationError || error is TimeInputError || error is CharacteristicError
            || error is SourceError || error is ChangeError || error is UUIDPrefixError
    }
}

/// Whether an error is a ``HealthError`` with `code`: what makes `catch HealthError.errorNoData { }` work.
public func ~= (code: HealthError.Code, error: any Error) -> Bool {
    (error as? HealthError)?.code == code
}

/// An error that knows which ``HealthError/Code`` it is.
protocol HealthErrorCoded {
    var healthErrorCode: HealthError.Code { get }
}
