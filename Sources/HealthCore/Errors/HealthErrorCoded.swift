// Which HealthKit code each area's errors stand for (see HealthError), for the areas whose cases differ. Every case
// of the input areas (HealthError.isInvalidArgument) is errorInvalidArgument. A store that cannot be read or
// written is errorDatabaseInaccessible; permission is errorAuthorizationDenied or errorAuthorizationNotDetermined;
// sizes are errorDataSizeExceeded.

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

extension UndoError: HealthErrorCoded {
    var healthErrorCode: HealthError.Code {
        switch self {
        case .nothingToUndo, .nothingOfTypeToUndo: return .errorNoData
        case .changedMeanwhile: return .errorDatabaseInaccessible
        case .newerChangeInTheWay: return .errorInvalidArgument
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
        case .cannotOpen, .readFailed, .batchNotSaved: return .errorDatabaseInaccessible
        default: return .errorInvalidArgument
        }
    }
}
