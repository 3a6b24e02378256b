#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TextSupport

/// The mount points the system is told to mount (`/etc/fstab`) and the ones mounted now (`/proc/self/mountinfo`), for
/// one question: would a new store be made on the bare folder of a disk that is not mounted?
///
/// A store kept on a removable or network disk has a path under that disk's mount point. While the disk is missing,
/// the mount point is an ordinary empty folder of the disk beneath it: a store made there (by a cron import or a push
/// to `hkctl serve`) takes that day's samples, and once the disk is mounted again they are hidden under it, while the
/// disk's own store lacks them. So a writer that would create a store refuses when its path lies under a mount point
/// `/etc/fstab` names and nothing is mounted there. A store that already exists is used where it is; a person who
/// does want a store on the folder beneath creates the store's folder first.
///
/// Where the mounted table cannot be read (no `/proc`, as on macOS, untested) nothing is refused.
enum MountTable {
    /// The deepest mount point in `fstab` (the text of `/etc/fstab`) that holds `path` and that `mountInfo` (the text
    /// of `/proc/self/mountinfo`) does not list as mounted, or nil when `path` lies under no such mount point.
    ///
    /// - Parameters:
    ///   - path: An absolute path with its symbolic links resolved (see ``resolvedPath(_:)``).
    ///   - fstab: `/etc/fstab`: six fields a line separated by blanks, `#` comments, spaces in paths as `\040`.
    ///   - mountInfo: `/proc/self/mountinfo`: the mount point is a line's fifth field, escaped as in `fstab`.
    ///   - resolve: How a mount point of `fstab` is spelled once its symbolic links are resolved (as `path`'s are, and
    ///     as the kernel lists mounts): `/media/disk` where `/media` links to `run/media` is `/run/media/disk`.
    static func unmountedMountPoint(holding path: String, fstab: String, mountInfo: String,
                                    resolve: (String) -> String = { $0 }) -> String? {
        let mounted = Set(mountPoints(in: mountInfo, field: 4))
        var deepest: String?
        for point in mountPoints(in: fstab, field: 1).map(resolve) where point != "/" && isInside(path, folder: point) {
            if deepest.map({ point.utf8.count > $0.utf8.count }) ?? true { deepest = point }
        }
        guard let deepest, !mounted.contains(deepest) else { return nil }
        return deepest
    }

    /// Whether `path` is `folder` or lies inside it (both absolute, without trailing or repeated slashes).
    static func isInside(_ path: String, folder: String) -> Bool {
        path == folder || path.hasPrefix(folder + "/")
    }

    /// The absolute paths in field `field` (from 0) of each line of a mount table, unescaped, without trailing
    /// slashes; comments, blank lines, and entries that are not paths (`none`, `swap`) are left out.
    static func mountPoints(in table: String, field: Int) -> [String] {
        var points: [String] = []
        for line in table.split(whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }) {
            let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard let first = fields.first, !first.hasPrefix("#"), fields.count > field,
                  fields[field].hasPrefix("/") else { continue }
            var point = unescaped(fields[field])
            while point.utf8.count > 1, point.hasSuffix("/") { point.removeLast() }
            points.append(point)
        }
        return points
    }

    /// A mount table's field with its octal escapes (`\040` for a space, `\011` a tab, `\134` a backslash) decoded.
    static func unescaped(_ field: Substring) -> String {
        guard field.utf8.contains(UInt8(ascii: "\\")) else { return String(field) }
        var bytes: [UInt8] = []
        let input = Array(field.utf8)
        var index = 0
        while index < input.count {
            if input[index] == UInt8(ascii: "\\"), index + 3 < input.count,
               let value = octal(input[(index + 1)...].prefix(3)) {
                bytes.append(value)
                index += 4
            } else {
                bytes.append(input[index])
                index += 1
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Three octal digits as a byte, or nil.
    private static func octal(_ digits: ArraySlice<UInt8>) -> UInt8? {
        guard digits.count == 3 else { return nil }
        var value = 0
        for digit in digits {
            guard digit >= UInt8(ascii: "0"), digit <= UInt8(ascii: "7") else { return nil }
            value = value * 8 + Int(digit - UInt8(ascii: "0"))
        }
        return value <= 255 ? UInt8(value) : nil
    }

    /// `path` made absolute (against the working folder) with the symbolic links of its longest existing part resolved,
    /// and the part that does not exist yet appended as written.
    static func resolvedPath(_ path: String) -> String {
        var absolute = path
        if !path.hasPrefix("/") {
            guard let folder = realpath(".", nil) else { return path }
            absolute = String(cString: folder) + "/" + path
            free(folder)
        }
        var names = PathText.components(of: absolute).map(String.init)
        var missing: [String] = []
        while !names.isEmpty {
            if let real = realpath("/" + names.joined(separator: "/"), nil) {
                defer { free(real) }
                return joined(String(cString: real), missing)
            }
            missing.insert(names.removeLast(), at: 0)
        }
        return joined("/", missing)
    }

    private static func joined(_ base: String, _ names: [String]) -> String {
        var path = base
        for name in names where name != "." {
            if name == ".." {
                path = PathText.parent(of: path)
                continue
            }
            path += (path.hasSuffix("/") ? "" : "/") + name
        }
        return path
    }

    /// The two tables' texts.
    struct Tables: Sendable {
        /// `/etc/fstab`.
        var fstab: String
        /// `/proc/self/mountinfo`.
        var mountInfo: String
    }

    /// This system's tables, or nil when the mounted table cannot be read (no `/proc`).
    static func systemTables() -> Tables? {
        guard let mountInfo = try? POSIXFile.readFile("/proc/self/mountinfo", followLinks: true) ?? nil else { return nil }
        let fstab = (try? POSIXFile.readFile("/etc/fstab", followLinks: true) ?? nil) ?? []
        return Tables(fstab: String(decoding: fstab, as: UTF8.self), mountInfo: String(decoding: mountInfo, as: UTF8.self))
    }

    /// The unmounted mount point a store at `path` would be made on (see the type's summary), from `tables` (nil:
    /// this system's); nil when there is none or the mounted table cannot be read.
    static func unmountedMountPoint(forNewStoreAt path: String, tables: Tables? = nil) -> String? {
        guard let tables = tables ?? systemTables() else { return nil }
        return unmountedMountPoint(holding: resolvedPath(path), fstab: tables.fstab, mountInfo: tables.mountInfo,
                                   resolve: resolvedPath)
    }
}
