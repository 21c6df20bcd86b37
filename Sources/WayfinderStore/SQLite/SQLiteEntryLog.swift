import Foundation
import Glibc

/// The SQLite store's journal entries, kept in append-only segment files beside the database (the
/// directory `<database>-entries`) instead of in its pages: a session's row lists where its entries
/// are (an `SQLiteJournalWindow` of positions), and an entry is written to its segment before the
/// commit that lists it, so a committed window never names bytes that are not there.
///
/// A position is a segment's number (the high 32 bits) and a byte offset in it (the low 32).
/// Each process appends only to a segment it created (`O_EXCL`, under a temporary name linked into
/// place already locked) and holds an exclusive `flock` on it while it does; a segment nobody
/// holds is *sealed* and never written again. Entries of a group are buffered and written with
/// one `pwrite` before the group commits (``flush()``, with `fdatasync` when the store is opened
/// for power loss). An entry is `varint(body length)` then the body: `varint(id length)`, the
/// session id, `varint(revision)`, `varint(record length)`, the record, the state.
///
/// Bytes written but never listed (a rolled-back group, a crash between the write and the commit)
/// are harmless: no window names them, and the journal's collector (`SQLiteJournalWriter`) deletes
/// a sealed segment once no window names anything in it, moving the few live entries forward first.
///
/// - Important: The writing side is used only under the store's writer lock; readers use only
///   ``read(at:files:)``, which touches no mutable state.
final class SQLiteEntryLog: @unchecked Sendable {
    /// An entry found in a segment by ``scan(_:from:limit:)``.
    struct Scanned {
        /// Where it starts in its segment, and its encoded bytes (header included).
        let offset: Int
        let bytes: ArraySlice<UInt8>
        let sessionID: String
        let revision: Int
        /// What it counts against the journal's bound (its record and state).
        let size: Int
    }

    /// The directory holding the segments.
    let directory: String
    /// The size past which a segment is sealed and the next one started.
    let segmentBytes: Int
    private let durable: Bool
    /// The segment this process appends to (0: none yet), its descriptor (locked), and how many
    /// of its bytes are on disk; `pending` follows them.
    private(set) var current: UInt32 = 0
    /// The newest segment this process started (new numbers only grow).
    private var started: UInt32 = 0
    private var fd: Int32 = -1
    private var written = 0
    private var pending: [UInt8] = []
    /// Bytes of the current segment written since its last `fdatasync` (a durable log syncs them).
    private var unsynced = false
    /// Pending bytes past this are written at once, even before the commit.
    private static let pendingLimit = 1 << 20

    /// The log of the database at `databasePath` (its directory is created with the first segment).
    init(databasePath: String, segmentBytes: Int = 32 << 20, durable: Bool) {
        directory = databasePath + "-entries"
        self.segmentBytes = max(1, min(segmentBytes, Int(Int32.max)))
        self.durable = durable
    }

    deinit {
        if fd >= 0 { close(fd) }
    }

    static func segment(of position: Int64) -> UInt32 { UInt32(truncatingIfNeeded: position >> 32) }

    static func offset(of position: Int64) -> Int { Int(position & 0xFFFF_FFFF) }

    func path(of segment: UInt32) -> String {
        let digits = String(segment, radix: 16)
        return directory + "/" + String(repeating: "0", count: max(0, 8 - digits.count)) + digits + ".log"
    }

    /// The segments on disk, oldest first.
    func segmentsOnDisk() throws -> [UInt32] {
        guard access(directory, F_OK) == 0 else { return [] }
        let names = try FileManager.default.contentsOfDirectory(atPath: directory)
        return names.compactMap { name -> UInt32? in
            guard name.count == 12, name.hasSuffix(".log") else { return nil }
            return UInt32(name.prefix(8), radix: 16)
        }.sorted()
    }

    // MARK: Writing (the writer lock held)

    /// The bytes `entry` of `sessionID` takes in a segment.
    static func encodedLength(sessionID: String, _ entry: JournalEntry) -> Int {
        let body = bodyLength(sessionID: sessionID, entry)
        return varintLength(UInt64(body)) + body
    }

    /// Where an entry of `length` encoded bytes goes if appended next: the current segment, or a
    /// new one when there is none yet or the entry would take the current one past its size.
    func nextPosition(for length: Int) throws -> Int64 {
        let end = written + pending.count
        if current == 0 || (end > 0 && end + length > segmentBytes) { try startSegment() }
        return Int64(current) << 32 | Int64(written + pending.count)
    }

    /// Appends `entry` (at ``nextPosition(for:)``, asked for just before).
    func append(_ entry: JournalEntry, sessionID: String) throws {
        let body = Self.bodyLength(sessionID: sessionID, entry)
        SQLiteJournalWindow.appendVarint(UInt64(body), to: &pending)
        var id = sessionID
        id.withUTF8 { utf8 in
            SQLiteJournalWindow.appendVarint(UInt64(utf8.count), to: &pending)
            pending.append(contentsOf: utf8)
        }
        SQLiteJournalWindow.appendVarint(UInt64(entry.revision), to: &pending)
        SQLiteJournalWindow.appendVarint(UInt64(entry.record.count), to: &pending)
        pending.append(contentsOf: entry.record)
        pending.append(contentsOf: entry.state)
        if pending.count > Self.pendingLimit { try writePending() }
    }

    /// Appends an entry's encoded bytes as they are (an entry moved forward by the collector).
    func append(encoded bytes: ArraySlice<UInt8>) throws {
        pending.append(contentsOf: bytes)
        if pending.count > Self.pendingLimit { try writePending() }
    }

    /// Writes what is pending (before the group's commit), and syncs it if the store is durable.
    func flush() throws {
        try writePending()
        try sync()
    }

    /// Syncs the current segment's written bytes, if the store is durable and any are unsynced.
    private func sync() throws {
        guard durable, unsynced else { return }
        if fdatasync(fd) != 0 { throw Self.failure("fdatasync \(path(of: current))") }
        unsynced = false
    }

    /// Drops what is pending (the group rolled back); the next entry goes where they would have.
    func discardPending() {
        pending.removeAll(keepingCapacity: true)
    }

    /// Deletes a segment (no window names anything in it); the newest on disk is emptied instead,
    /// so that its number is never given to a new segment (a stale position never names new bytes).
    func remove(_ segment: UInt32) throws {
        let path = path(of: segment)
        if segment >= (try segmentsOnDisk().last ?? 0) {
            if truncate(path, 0) != 0, errno != ENOENT { throw Self.failure("truncate \(path)") }
        } else if unlink(path) != 0, errno != ENOENT {
            throw Self.failure("unlink \(path)")
        }
    }

    /// Whether `segment` is sealed: not this process's current one, and no other process holds it.
    func isSealed(_ segment: UInt32) -> Bool {
        guard segment != current else { return false }
        let probe = open(path(of: segment), O_RDONLY | O_CLOEXEC)
        guard probe >= 0 else { return false }
        defer { close(probe) }
        return flock(probe, LOCK_EX | LOCK_NB) == 0
    }

    private func writePending() throws {
        guard !pending.isEmpty else { return }
        unsynced = true
        var done = 0
        while done < pending.count {
            let count = pending.withUnsafeBytes { bytes in
                pwrite(fd, bytes.baseAddress! + done, bytes.count - done, off_t(written + done))
            }
            if count < 0 {
                if errno == EINTR { continue }
                throw Self.failure("write \(path(of: current))")
            }
            done += count
        }
        written += done
        pending.removeAll(keepingCapacity: true)
    }

    /// Seals the current segment (its pending bytes written) and starts the next: created under a
    /// temporary name, locked, then linked into place, so no other process ever sees it unlocked.
    private func startSegment() throws {
        try writePending()
        if fd >= 0 {
            try sync()
            close(fd)
            fd = -1
            // Until a new segment is in place nothing may be placed in the old one.
            current = 0
        }
        if mkdir(directory, 0o755) != 0, errno != EEXIST { throw Self.failure("mkdir \(directory)") }
        // A random name: processes in different containers sharing the volume may have one pid.
        var temporary = ""
        var created: Int32 = -1
        while created < 0 {
            temporary = directory + "/.new-" + String(UInt64.random(in: 0...UInt64.max), radix: 16)
            created = open(temporary, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
            if created < 0, errno != EEXIST { throw Self.failure("create \(temporary)") }
        }
        defer { unlink(temporary) }
        guard flock(created, LOCK_EX) == 0 else {
            close(created)
            throw Self.failure("flock \(temporary)")
        }
        let highest: UInt32
        do {
            highest = try segmentsOnDisk().last ?? 0
        } catch {
            close(created)
            throw error
        }
        var number = max(started, highest) + 1
        while link(temporary, path(of: number)) != 0 {
            guard errno == EEXIST, number < UInt32.max else {
                close(created)
                throw Self.failure("link \(path(of: number))")
            }
            number += 1
        }
        fd = created
        current = number
        started = number
        written = 0
        if durable {
            let directoryFD = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            if directoryFD >= 0 {
                defer { close(directoryFD) }
                _ = fsync(directoryFD)
            }
        }
    }

    // MARK: Reading

    /// The entry at `position` as the writer has it, pending bytes included (the writer lock held).
    func readOwn(at position: Int64, files: inout SegmentFiles) throws -> (sessionID: String, entry: JournalEntry)? {
        let offset = Self.offset(of: position)
        if Self.segment(of: position) == current, offset >= written {
            guard let (found, _) = Self.decode(pending[...], at: offset - written) else { return nil }
            return (found.sessionID, found.entry)
        }
        return try read(at: position, files: &files)
    }

    /// The entry at `position` on disk; nil if its segment is gone (collected since the caller's
    /// window was read) or the bytes there are not an entry.
    func read(at position: Int64, files: inout SegmentFiles) throws -> (sessionID: String, entry: JournalEntry)? {
        let segment = Self.segment(of: position)
        guard let fd = try files.descriptor(path(of: segment)) else { return nil }
        let offset = Self.offset(of: position)
        var bytes = try Self.read(fd, at: offset, count: 512)
        guard let (length, header) = Self.varint(bytes[...], at: 0), length < UInt64(Int32.max) else { return nil }
        if header + Int(length) > bytes.count {
            bytes = try Self.read(fd, at: offset, count: header + Int(length))
        }
        guard let (found, _) = Self.decode(bytes[...], at: 0) else { return nil }
        return (found.sessionID, found.entry)
    }

    /// The entries of a sealed segment from `offset`, reading about `limit` bytes; `next` is where
    /// the following call goes on, and `atEnd` whether the segment's last entry was reached (bytes
    /// after it that are not an entry, the torn tail of a crash, count as its end).
    func scan(_ segment: UInt32, from offset: Int, limit: Int) throws -> (entries: [Scanned], next: Int, atEnd: Bool) {
        var files = SegmentFiles()
        guard let fd = try files.descriptor(path(of: segment)) else { return ([], offset, true) }
        var asked = max(limit, 4_096)
        while true {
            let chunk = try Self.read(fd, at: offset, count: asked)
            var entries: [Scanned] = []
            var at = 0
            while let (found, end) = Self.decode(chunk[...], at: at) {
                entries.append(Scanned(
                    offset: offset + at, bytes: chunk[at..<end], sessionID: found.sessionID, revision: found.revision,
                    size: found.record.count + found.state.count))
                at = end
            }
            let reachedEnd = chunk.count < asked
            if !entries.isEmpty || reachedEnd { return (entries, offset + at, reachedEnd) }
            // One entry larger than the chunk: read all of it (if that was read already, or the
            // bytes are no entry's header, they are not an entry: the segment ends here).
            guard let (length, header) = Self.varint(chunk[...], at: 0), length < UInt64(Int32.max),
                header + Int(length) > asked
            else { return ([], offset, true) }
            asked = header + Int(length)
        }
    }

    /// Descriptors opened for reading, closed when the value goes.
    struct SegmentFiles: ~Copyable {
        private var open: [String: Int32] = [:]

        init() {}

        deinit {
            for fd in open.values where fd >= 0 { close(fd) }
        }

        /// The descriptor of `path`; nil if the file does not exist.
        mutating func descriptor(_ path: String) throws -> Int32? {
            if let fd = open[path] { return fd >= 0 ? fd : nil }
            let fd = Glibc.open(path, O_RDONLY | O_CLOEXEC)
            if fd < 0, errno != ENOENT { throw SQLiteEntryLog.failure("open \(path)") }
            open[path] = fd
            return fd >= 0 ? fd : nil
        }
    }

    // MARK: Encoding

    private static func bodyLength(sessionID: String, _ entry: JournalEntry) -> Int {
        let id = sessionID.utf8.count
        return varintLength(UInt64(id)) + id + varintLength(UInt64(entry.revision)) + varintLength(UInt64(entry.record.count))
            + entry.record.count + entry.state.count
    }

    private struct Decoded {
        let sessionID: String
        let revision: Int
        let record: [UInt8]
        let state: [UInt8]

        var entry: JournalEntry { JournalEntry(revision: revision, record: record, state: state) }
    }

    /// The entry starting at `start` in `bytes` and where it ends; nil if it is cut short or malformed.
    private static func decode(_ bytes: ArraySlice<UInt8>, at start: Int) -> (Decoded, end: Int)? {
        let base = bytes.startIndex
        func fits(_ count: UInt64, _ from: Int, _ end: Int) -> Bool { from <= end && count <= UInt64(end - from) }
        guard let (length, header) = varint(bytes, at: start), fits(length, start + header, bytes.count) else { return nil }
        let end = start + header + Int(length)
        var at = start + header
        guard let (idLength, a) = varint(bytes, at: at), fits(idLength, at + a, end) else { return nil }
        at += a
        let id = String(decoding: bytes[base + at..<base + at + Int(idLength)], as: UTF8.self)
        at += Int(idLength)
        guard let (revision, b) = varint(bytes, at: at), revision <= UInt64(Int.max) else { return nil }
        at += b
        guard at <= end, let (recordLength, c) = varint(bytes, at: at), fits(recordLength, at + c, end) else { return nil }
        at += c
        let record = Array(bytes[base + at..<base + at + Int(recordLength)])
        at += Int(recordLength)
        return (Decoded(sessionID: id, revision: Int(revision), record: record, state: Array(bytes[base + at..<base + end])), end)
    }

    /// The varint at `offset` (relative to the slice's start) and its length in bytes.
    private static func varint(_ bytes: ArraySlice<UInt8>, at offset: Int) -> (UInt64, Int)? {
        var value: UInt64 = 0
        var index = bytes.startIndex + offset
        var shift: UInt64 = 0
        while index < bytes.endIndex, shift < 64 {
            let byte = bytes[index]
            value |= UInt64(byte & 0x7f) << shift
            index += 1
            if byte < 0x80 { return (value, index - bytes.startIndex - offset) }
            shift += 7
        }
        return nil
    }

    private static func varintLength(_ value: UInt64) -> Int {
        var length = 1
        var rest = value >> 7
        while rest > 0 {
            length += 1
            rest >>= 7
        }
        return length
    }

    private static func read(_ fd: Int32, at offset: Int, count: Int) throws -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            let got = bytes.withUnsafeMutableBytes { buffer in
                pread(fd, buffer.baseAddress! + done, count - done, off_t(offset + done))
            }
            if got < 0 {
                if errno == EINTR { continue }
                throw failure("read a journal segment")
            }
            if got == 0 { break }
            done += got
        }
        bytes.removeLast(count - done)
        return bytes
    }

    private static func failure(_ context: String) -> StoreError {
        .unavailable("journal log: \(context): \(String(cString: strerror(errno)))")
    }
}
