extension HealthError {
    // The codes as static members, as on `HKError`, so that `catch HealthError.errorNoData` reads as in HealthKit.
    /// ``Code/errorUnknown``.
    public static var errorUnknown: Code { .errorUnknown }
    /// ``Code/errorHealthDataUnavailable``.
    public static var errorHealthDataUnavailable: Code { .errorHealthDataUnavailable }
    /// ``Code/errorHealthDataRestricted``.
    public static var errorHealthDataRestricted: Code { .errorHealthDataRestricted }
    /// ``Code/errorInvalidArgument``.
    public static var errorInvalidArgument: Code { .errorInvalidArgument }
    /// ``Code/errorAuthorizationDenied``.
    public static var errorAuthorizationDenied: Code { .errorAuthorizationDenied }
    /// ``Code/errorAuthorizationNotDetermined``.
    public static var errorAuthorizationNotDetermined: Code { .errorAuthorizationNotDetermined }
    /// ``Code/errorDatabaseInaccessible``.
    public static var errorDatabaseInaccessible: Code { .errorDatabaseInaccessible }
    /// ``Code/errorUserCanceled``.
    public static var errorUserCanceled: Code { .errorUserCanceled }
    /// ``Code/errorAnotherWorkoutSessionStarted``.
    public static var errorAnotherWorkoutSessionStarted: Code { .errorAnotherWorkoutSessionStarted }
    /// ``Code/errorUserExitedWorkoutSession``.
    public static var errorUserExitedWorkoutSession: Code { .errorUserExitedWorkoutSession }
    /// ``Code/errorRequiredAuthorizationDenied``.
    public static var errorRequiredAuthorizationDenied: Code { .errorRequiredAuthorizationDenied }
    /// ``Code/errorNoData``.
    public static var errorNoData: Code { .errorNoData }
    /// ``Code/errorWorkoutActivityNotAllowed``.
    public static var errorWorkoutActivityNotAllowed: Code { .errorWorkoutActivityNotAllowed }
    /// ``Code/errorDataSizeExceeded``.
    public static var errorDataSizeExceeded: Code { .errorDataSizeExceeded }
    /// ``Code/errorBackgroundWorkoutSessionNotAllowed``.
    public static var errorBackgroundWorkoutSessionNotAllowed: Code { .errorBackgroundWorkoutSessionNotAllowed }
    /// ``Code/errorNotPermissibleForGuestUserMode``.
    public static var errorNotPermissibleForGuestUserMode: Code { .errorNotPermissibleForGuestUserMode }
}
