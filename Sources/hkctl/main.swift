// The hkctl executable. Everything it does is in HKCtlCommands (which the tests import); this file only starts it,
// so that the executable's static link (Package.swift) stays out of the test bundle's.
import HKCtlCommands

ProcessEntry.main()
