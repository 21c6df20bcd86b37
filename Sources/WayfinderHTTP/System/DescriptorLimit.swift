import CEpoll

/// The process's limit on open file descriptors (`RLIMIT_NOFILE`): every connection, listener,
/// epoll instance and store file takes one.
public enum DescriptorLimit {
    /// Raises the soft limit to the hard limit (what an unprivileged process may do) and returns
    /// the soft limit in force afterwards; nil if it cannot be read.
    ///
    /// Services often start under a soft limit of 1024 while the hard limit allows far more; a
    /// server that keeps the low one runs out of descriptors long before `maxConnections`.
    public static func raiseToHardLimit() -> Int? {
        var soft: UInt64 = 0, hard: UInt64 = 0
        guard cepoll_nofile_limit(&soft, &hard) == 0 else { return nil }
        if soft < hard, cepoll_set_nofile_soft_limit(hard) == 0 { soft = hard }
        return soft > UInt64(Int.max) ? Int.max : Int(soft)
    }
}
