// The one Foundation import of IngestHTTP, visible to every file of the module: FoundationEssentials on Linux (as in
// hkctl, which links this module statically), Foundation elsewhere.
#if canImport(FoundationEssentials)
@_exported import FoundationEssentials
#else
@_exported import Foundation
#endif
