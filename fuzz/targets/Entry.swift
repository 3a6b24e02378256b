// The one libFuzzer entry point: all targets are linked into one binary (HealthCore is compiled once) and
// $HKCTL_FUZZ_TARGET chooses which one runs.
import Foundation

private let chosen: (UnsafeRawPointer, Int) -> CInt = {
    switch ProcessInfo.processInfo.environment["HKCTL_FUZZ_TARGET"] ?? "" {
    case "xml": return fuzzXML
    case "storeline": return fuzzStoreLine
    case "unit": return fuzzUnit
    case "time": return fuzzTime
    case "http": return fuzzHTTP
    default: fatalError("set HKCTL_FUZZ_TARGET to xml, storeline, unit, time or http")
    }
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzEntry(_ data: UnsafeRawPointer, _ size: Int) -> CInt {
    chosen(data, size)
}
