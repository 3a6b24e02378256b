/// The environment variables hkctl and the HealthCore calls it makes read: the process's environment is taken in as
/// these alone (``ProcessEntry``), since a dictionary of a login shell's forty-odd variables cost every command about 0.2 M
/// instructions. `EnvironmentNamesTests` checks that every name the sources look up is here.
enum EnvironmentNames {
    static let all: [String] = [
        "HKCTL_STORE", "HKCTL_TZ", "HKCTL_NOW", "HKCTL_SOURCE", "HKCTL_LOCK_TIMEOUT", "HKCTL_SERVE_TEST_TIMEOUTS",
        "XDG_DATA_HOME", "HOME", "TZ", "TZDIR", "LC_ALL", "LC_TIME", "LANG", "TERM", "NO_COLOR", "COLUMNS",
    ]
}
