/// Where the per-user store lives: `$XDG_DATA_HOME/hkctl`, else `~/.local/share/hkctl`. ``HealthStore/init()``
/// opens it; a program that lets its user name another folder decides that itself and falls back to this one.
public enum StoreLocation: Sendable {
    /// The per-user data folder in `environment`: `$XDG_DATA_HOME/hkctl` when `XDG_DATA_HOME` is an absolute path,
    /// else `$HOME/.local/share/hkctl`.
    ///
    /// - Parameter environment: The process environment (`XDG_DATA_HOME`, `HOME`).
    /// - Returns: The folder path, or nil when the environment names neither.
    public static func userDefault(environment: [String: String]) -> String? {
        if let data = environment["XDG_DATA_HOME"], data.hasPrefix("/") { return data + "/hkctl" }
        if let home = environment["HOME"], !home.isEmpty { return home + "/.local/share/hkctl" }
        return nil
    }
}
