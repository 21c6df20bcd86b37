import CEpoll

/// Random bytes from the kernel's CSPRNG through `getrandom(2)`.
///
/// No file descriptor is opened, so it works when the process has used up its descriptors
/// (reading `/dev/urandom` would need one, and a server at its descriptor limit could not
/// create a session).
public enum SystemRandom {
    /// Fills `buffer` with random bytes.
    /// - Throws: `SystemError` if the kernel refuses (only `ENOSYS` before Linux 3.17, or `EFAULT`).
    public static func fill(_ buffer: UnsafeMutableRawBufferPointer) throws(SystemError) {
        guard let base = buffer.baseAddress else { return }
        var filled = 0
        while filled < buffer.count {
            // EINTR is retried; a large request may also be answered in part.
            filled += try systemCallBlocking("getrandom") { cepoll_getrandom(base + filled, UInt(buffer.count - filled)) }
        }
    }
}
