// The one Foundation import of hkctl's commands, visible to every file of HKCtlCommands.
// On Linux only FoundationEssentials (no ICU, no swift-corelibs-foundation): the static hkctl stays small and
// starts fast. Elsewhere (macOS) Foundation, which contains the same API.
#if canImport(FoundationEssentials)
@_exported import FoundationEssentials
#else
@_exported import Foundation
#endif
