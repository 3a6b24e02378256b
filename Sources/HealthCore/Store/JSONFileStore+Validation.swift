#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How much of a file a store instance has already checked, so a long import re-reads only new bytes.
struct ValidatedExtent {
    var device: UInt64
    var inode: UInt64
    /// Bytes up to the end of the last good line.
    var length: Int
    /// Lines in those bytes.
    var lines: Int
    /// The largest change number on those lines.
    var highestSequence: UInt64 = 0
}

extension JSONFileStore {
    /// Checks every complete line of a sample partition before a write appends to it, so a damaged file is
    /// reported (file and line) instead of written to. A bad final line is left to ``repairTail(of:isValid:)``:
    /// that is what a crash leaves.
    ///
    /// - Throws: ``StoreError/corrupt(_:line:reason:)`` for a bad line followed by others.
    func validateSampleFile(_ relative: String) throws {
        var codec = self.codec
        var parser = QuantityLineParser()
        let names = ReadingNames()
        try validate(relative) { line, sequence in
            // The positional reader accepts only lines the full decoder accepts, at a fraction of its cost (an add
            // checks the whole partition it appends to); anything else is decoded in full, which says what is wrong.
            if let fields = parser.parse(line, names: names) {
                sequence = fields.sequence
                return nil
            }
            let checked = StoreLineReader.checkSampleLine(line, codec: &codec)
            sequence = checked.sequence
            return checked.failure
        }
    }

    /// ``validateSampleFile(_:)`` for a tombstone file.
    func validateTombstoneFile(_ relative: String) throws {
        try validate(relative) { line, sequence in
            guard let tombstone = JSONFileStore.decodeTombstone(line) else { return StoreLineReader.checkTombstoneLine(line) }
            sequence = tombstone.sequence
            return StoreLineReader.utf8Failure(line)
        }
    }

    /// The names in a folder of the store (relative path), or none when it does not exist.
    ///
    /// - Throws: ``StoreError/readFailed(_:reason:)`` when it exists but cannot be listed (permissions); the errors of
    ///   ``StoreSafety/checkEntry(_:_:userID:)`` for a folder of another user or one others can write to.
    func folderEntries(_ relative: String) throws -> [String] {
        let folder = try storeFile(relative)
        // The folder itself is opened without following a link, the folders on the way were checked above.
        let fd = open(folder, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        if fd < 0 {
            let code = errno
            if code == ENOENT { return [] }
            var info = stat()
            if code == ELOOP || code == ENOTDIR, lstat(folder, &info) == 0 {
                if (info.st_mode & S_IFMT) == S_IFLNK {
                    throw StoreError.unsafe(folder, reason: "it is a symbolic link inside the store; the store never reads or "
                        + "writes through one (replace it with a real folder)")
                }
                throw StoreError.notAFile(folder, kind: POSIXFile.kindName(info.st_mode) + " where a folder belongs")
            }
            throw StoreError.readFailed(folder, reason: POSIXFile.errorText(code))
        }
        var info = stat()
        do {
            guard fstat(fd, &info) == 0 else { throw StoreError.readFailed(folder, reason: POSIXFile.errorText()) }
            try StoreSafety.checkEntry(folder, info)
        } catch {
            close(fd)
            throw error
        }
        guard let handle = fdopendir(fd) else {
            let reason = POSIXFile.errorText()
            close(fd)
            throw StoreError.readFailed(folder, reason: reason)
        }
        defer { closedir(handle) }
        var names: [String] = []
        while let entry = readdir(handle) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(cString: raw.baseAddress!.assumingMemoryBound(to: CChar.self))
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    /// Checks the lines of `relative` not checked yet; `check` says why a line is bad (nil: good) and sets its change
    /// number.
    private func validate(_ relative: String, check: (UnsafeBufferPointer<UInt8>, inout UInt64) -> String?) throws {
        let file = try storeFile(relative)
        guard let (fd, info) = try POSIXFile.openRegular(file, flags: O_RDONLY) else { validated[relative] = nil; return }
        defer { close(fd) }
        let size = Int(info.st_size)
        var extent = ValidatedExtent(device: UInt64(info.st_dev), inode: UInt64(info.st_ino), length: 0, lines: 0)
        if let known = validated[relative], known.device == extent.device, known.inode == extent.inode, known.length <= size {
            extent = known
        } else if let mark = writeLock?.validationMarks().mark(for: relative), mark.matches(info) {
            // The file is exactly as the last writer left it, all of it checked then (ValidationMarks).
            validated[relative] = ValidatedExtent(device: extent.device, inode: extent.inode, length: size, lines: mark.lines,
                                                  highestSequence: mark.highestSequence)
            return
        }
        guard size > extent.length else { return }
        validationBytesRead.withLock { $0 += size - extent.length }
        var bytes = [UInt8](repeating: 0, count: size - extent.length)
        var done = 0
        while done < bytes.count {
            let count = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress! + done, $0.count - done, off_t(extent.length + done)) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { throw StoreError.readFailed(file, reason: count < 0 ? POSIXFile.errorText() : "it shrank while being read") }
            done += count
        }
        var pending: (line: Int, reason: String, torn: Bool)?
        var good = extent
        try bytes.withUnsafeBufferPointer { buffer in
            try StoreLineReader.forEachLine(in: buffer, firstNumber: extent.lines + 1) { line in
                guard line.terminated else { return }
                let text = UnsafeBufferPointer(rebasing: buffer[line.range])
                let blank = StoreLineReader.isBlank(text)
                if blank && pending != nil { return }
                if let failure = pending { throw StoreError.corrupt(file, line: failure.line, reason: failure.reason) }
                var sequence: UInt64 = 0
                if !blank, let reason = check(text, &sequence) {
                    pending = (line.number, reason, StoreLineReader.isTornWrite(text))
                    return
                }
                good.highestSequence = max(good.highestSequence, sequence)
                good.length = extent.length + line.range.upperBound + 1
                good.lines = line.number
            }
        }
        if let failure = pending, !failure.torn { throw StoreError.corrupt(file, line: failure.line, reason: failure.reason) }
        validated[relative] = good
    }
}
