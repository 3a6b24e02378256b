// The hkctl executable. Everything it does is in HKCtlCommands (which the tests import); this file only starts it,
// so that the executable's static link (Package.swift) stays out of the test bundle's.
import CStartup
import HKCtlCommands

// The runtime has its arguments (Sources/CStartup/argv.c): later looks at /proc/self/maps are answered as usual.
hkctl_arguments_taken()
ProcessEntry.main()
