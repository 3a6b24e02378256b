import HealthCore
import HKCtlSupport

/// The documented exit codes (BSD sysexits), and the one mapping from errors to them.
enum ExitStatus: Int32 {
    case ok = 0
    case failure = 1
    case usage = 64
    case badData = 65
    case missingInput = 66
    case cannotCreate = 73
    case ioError = 74
    case busy = 75
    case notPermitted = 77

    /// The exit code for an error thrown by a command.
    static func of(_ error: Error) -> ExitStatus {
        switch error {
        case is UsageError: return .usage
        case let error as SampleError:
            if case .unknownType = error { return .usage }
            return .badData
        case is UnitError, is TimeInputError, is TypedTimeError, is CorrelationError, is DoctorError, is TextError, is OverflowError: return .badData
        case let error as WorkoutError:
            if case .unknownActivity = error { return .usage }
            return .badData
        case let error as CharacteristicError:
            if case .notASampleType = error { return .usage }
            return .badData
        case is SettingsError: return .usage
        case let error as GoalError:
            if case .notApplicable = error { return .usage }
            return .badData
        case let error as ImportError:
            switch error {
            case .cannotOpen: return .missingInput
            case .readFailed, .batchNotSaved: return .ioError
            default: return .badData
            }
        case let error as ExportError:
            switch error {
            case .cannotCreate, .danglingLink, .linkLoop, .isFolder, .insideStore, .unusableDescriptor: return .cannotCreate
            case .writeFailed, .outputClosed: return .ioError
            }
        case let error as AuthorizationError:
            switch error {
            case .emptyRequest: return .usage
            case .cannotShare: return .badData
            default: return .notPermitted
            }
        case let error as PushTokenError:
            if case .notFound = error { return .missingInput }
            return .badData
        case is GPXError: return .missingInput
        case let error as UUIDPrefixError:
            if case .noMatch = error { return .missingInput }
            return .usage
        case let error as UndoError:
            switch error {
            case .nothingToUndo, .nothingOfTypeToUndo: return .missingInput
            case .changedMeanwhile: return .busy
            case .newerChangeInTheWay: return .badData
            }
        case let error as ChangeError:
            switch error {
            case .notFound, .notFoundToReplace, .nothingOfTypeToDelete: return .missingInput
            default: return .badData
            }
        case let error as StoreError:
            switch error {
            case .cannotCreate, .notAStore, .notAFolder, .noDefaultLocation, .notMounted: return .cannotCreate
            case .readFailed, .writeFailed: return .ioError
            case .busy: return .busy
            case .corrupt, .notAFile, .newerVersion, .badMarker, .unknownVersion, .unknownFormat, .changeNumbersExhausted,
                 .counterBehind:
                return .badData
            case .unsafe, .foreignOwner: return .notPermitted
            case .notADocument: return .usage
            case .disappeared: return .missingInput
            }
        default: return .failure
        }
    }
}
