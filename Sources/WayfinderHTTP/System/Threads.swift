import Glibc

/// Starts a detached POSIX thread running `body` (one per event loop; no thread per connection).
enum Threads {
    private final class Box {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }

    static func spawn(_ body: @escaping @Sendable () -> Void) throws(SystemError) {
        var thread = pthread_t()
        let box = Unmanaged.passRetained(Box(body)).toOpaque()
        let rc = pthread_create(&thread, nil, { arg in
            let box = Unmanaged<Box>.fromOpaque(arg!).takeRetainedValue()
            box.body()
            return nil
        }, box)
        if rc != 0 {
            Unmanaged<Box>.fromOpaque(box).release()
            throw SystemError(call: "pthread_create", errno: rc)
        }
        pthread_detach(thread)
    }

    /// Online processor count.
    static var processorCount: Int { max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))) }
}
