/// Where the store lives when the user does not say: `--store`, else `$HKCTL_STORE`, else
/// `$XDG_DATA_HOME/hkctl`, else `~/.local/share/hkctl`.
public enum StoreLocation {
    /// The store folder for an explicit `--store` value and an environment.
    ///
    /// - Parameters:
    ///   - explicit: The `--store` value, if given.
    ///   - environment: The process environment (`HKCTL_STORE`, `XDG_DATA_HOME`, `HOME`).
    /// - Returns: The folder path, or nil when nothing names one (no `HOME` either).
    public static func resolve(explicit: String?, environment: [String: String]) -> String? {
        if let explicit, !explicit.isEmpty { return explicit }
        if let path = environment["HKCTL_STORE"], !path.isEmpty { return path }
        return userDefault(environment: environment)
    }

    /// The per-user data folder: `$XDG_DATA_HOME/hkctl`, else `~/.local/share/hkctl`; nil without either.
    public static func userDefault(environment: [String: String]) -> String? {
        if let data = environment["XDG_DATA_HOME"], data.hasPrefix("/") { return data + "/hkctl" }
        if let home = environment["HOME"], !home.isEmpty { return home + "/.local/share/hkctl" }
        return nil
    }
}
