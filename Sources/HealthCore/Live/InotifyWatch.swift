#if canImport(Glibc)
import Glibc
import TextSupport

/// An inotify descriptor watching a store folder for writes to its change files, or, while the folder does not exist,
/// its nearest existing parent for the folders on the way being created.
final class InotifyWatch {
    let fd: Int32
    private let directory: String
    /// The watch on the store folder, when it exists.
    private var storeWatch: Int32 = -1
    /// The watch on the nearest existing parent, while the store folder does not exist.
    private var parentWatch: Int32 = -1

    private static let storeEvents = UInt32(IN_MODIFY | IN_CLOSE_WRITE | IN_CREATE | IN_MOVED_TO | IN_DELETE_SELF
        | IN_MOVE_SELF | IN_ONLYDIR)
    private static let parentEvents = UInt32(IN_CREATE | IN_MOVED_TO | IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR)

    /// Nil when inotify is not available (no descriptors or watches left): the caller falls back to polling.
    init?(directory: String) {
        let fd = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
        guard fd >= 0 else { return nil }
        self.fd = fd
        self.directory = directory
        guard arm() else {
            Glibc.close(fd)
            return nil
        }
    }

    func close() { Glibc.close(fd) }

    /// Watches the store folder if it exists, else its nearest existing parent. Returns false when no watch can be
    /// added at all.
    @discardableResult
    private func arm() -> Bool {
        if storeWatch < 0 {
            storeWatch = inotify_add_watch(fd, directory, Self.storeEvents)
        }
        if storeWatch >= 0 {
            if parentWatch >= 0 { inotify_rm_watch(fd, parentWatch) }
            parentWatch = -1
            return true
        }
        var folder = directory
        while true {
            let parent = PathText.parent(of: folder)
            let next = parent.isEmpty ? "." : parent
            guard next != folder else { return false }
            folder = next
            let watch = inotify_add_watch(fd, folder, Self.parentEvents)
            if watch >= 0 {
                if parentWatch >= 0 && parentWatch != watch { inotify_rm_watch(fd, parentWatch) }
                parentWatch = watch
                // The store folder may have appeared before the watch was in place.
                storeWatch = inotify_add_watch(fd, directory, Self.storeEvents)
                if storeWatch >= 0 {
                    inotify_rm_watch(fd, parentWatch)
                    parentWatch = -1
                }
                return true
            }
            guard errno == ENOENT || errno == ENOTDIR else { return false }
        }
    }

    /// Reads every pending event; returns whether one may mean a change to the store.
    func readEvents() -> Bool {
        var changed = false
        var rearm = false
        let size = 64 * 1024
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: MemoryLayout<inotify_event>.alignment)
        defer { buffer.deallocate() }
        while true {
            let count = read(fd, buffer, size)
            if count <= 0 { break }
            var offset = 0
            while offset + MemoryLayout<inotify_event>.size <= count {
                let event = buffer.load(fromByteOffset: offset, as: inotify_event.self)
                let nameStart = buffer + offset + MemoryLayout<inotify_event>.size
                let name = event.len > 0 ? String(cString: nameStart.assumingMemoryBound(to: CChar.self)) : ""
                offset += MemoryLayout<inotify_event>.size + Int(event.len)
                if event.mask & UInt32(IN_Q_OVERFLOW) != 0 {
                    changed = true
                } else if event.wd == storeWatch {
                    if event.mask & UInt32(IN_IGNORED | IN_DELETE_SELF | IN_MOVE_SELF) != 0 {
                        // The folder went away (or was moved): wait for it to come back.
                        if event.mask & UInt32(IN_IGNORED) == 0 { inotify_rm_watch(fd, storeWatch) }
                        storeWatch = -1
                        rearm = true
                        changed = true
                    } else if ChangeWatcher.watchedNames.contains(name) {
                        changed = true
                    }
                } else if event.wd == parentWatch {
                    rearm = true
                    if event.mask & UInt32(IN_DELETE_SELF | IN_MOVE_SELF) != 0 { inotify_rm_watch(fd, parentWatch) }
                    if event.mask & UInt32(IN_IGNORED | IN_DELETE_SELF | IN_MOVE_SELF) != 0 { parentWatch = -1 }
                }
            }
        }
        if rearm {
            let hadStore = storeWatch >= 0
            arm()
            // The store folder just appeared: its first write may have come before the watch.
            if !hadStore && storeWatch >= 0 { changed = true }
        }
        return changed
    }
}
#endif
