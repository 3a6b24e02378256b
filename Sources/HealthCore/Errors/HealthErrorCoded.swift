// Which HealthKit code each area's errors stand for (see HealthError). Arguments that cannot be taken are
// errorInvalidArgument; a store that cannot be read or written is errorDatabaseInaccessible; permission is
// errorAuthorizationDenied or errorAuthorizationNotDetermined; sizes are errorDataSizeExceeded.

extension StoreError: HealthErrorCoded {
    var healthErrorCode: HealthError.Code {
        switch self {
        case .noDefaultLocation: return .errorHealthDataUnavailable
        case .notADocument: return .errorInvalidArgument
        default: return .errorDatabaseInaccessible
        }
    }
}

extension AuthorizationError: HealthErrorCoded {
    var healthErrorCode: HealthError.Code {
        healthKitCode.flatMap(HealthError.Code.init(rawValue:)) ?? .errorInvalidArgument
    }
}

extension SampleError: HealthErrorCoded {
    var healthErrorCode: HealthError.Code { .errorInvalidArgument }
}

extension UnitError: HealthErrorCoded {
    var healthErrorCode: HealthError.Code { .errorInvalidArgument }
}

extension TextError: HealthErrorCoded {
    var healthErrorCode: HealthError.Code { .errorInvalidArgument }
}

extension WorkoutError: HealthErrorCoded {
    var healthErrorCode: HealthError.Code { .errorInvalidArgument }
}

extension CorrelationError: HealthErrorCoded {
    var healthErrorCode: HealthError.Code { .errorInvalidArgument }
}

extension TimeInputError: HealthErrorCoded {
    var healthErrorCode: HealthError.Code { .errorInvalidArgument }
}

extension CharacteristicError: HealthErrorCoded {
    var healthErrorCode: HealthError.Code { .errorInvalidArgument }
}

extension GoalError: HealthErrorCoded {
    var healthErrorCode: HealthError.Code { .errorInvalidArgument }
}

extension SettingsError: HealthErrorCoded {
    var healthErrorCode: HealthError.Code { .errorInvalidArgument }
}

extension SourceError: HealthErrorCoded {
    var healthErrorCode: HealthError.Code { .errorInvalidArgument }
}

extension StatisticsError: HealthErrorCoded {
    var healthErrorCode: HealthError.Code {
        switch self {
        case .tooManyBuckets: return .errorDataSizeExceeded
        case .noData: return .errorNoData
        default: return .errorInvalidArgument
        }
    }
}

extension OverflowError: HealthErrorCoded {
    var healthErrorCode: HealthError.Code { .errorDataSizeExceeded }
}

extension ChangeError: HealthErrorCoded {
    var healthErrorCode: HealthError.Code { .errorInvalidArgument }
}

extension UndoError: HealthErrorCoded {
    var healthErrorCode: HealthError.Code {
        switch self {
        case .nothingToUndo: return .errorNoData
        case .changedMeanwhile: return .errorDatabaseInaccessible
        }
    }
}

extension ExportError: HealthErrorCoded {
    var healthErrorCode: HealthError.Code { .errorDatabaseInaccessible }
}

extension ImportError: HealthErrorCoded {
    var healthErrorCode: HealthError.Code {
        switch self {
        case .nestingTooDeep, .tooManyChildren, .lineTooLong: return .errorDataSizeExceeded
        case .cannotOpen, .readFailed: return .errorDatabaseInaccessible
        default: return .errorInvalidArgument
        }
    }
}
