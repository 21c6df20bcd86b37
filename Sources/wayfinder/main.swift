import DemoApp
import Foundation
import Glibc
import WayfinderAPI
import WayfinderHTTP
import WayfinderStore

// The `wayfinder` executable: settings, wiring, signals. Everything else lives in the targets.

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("wayfinder: \(message)\n".utf8))
    exit(2)
}

// `wayfinder healthcheck`: the container's HEALTHCHECK (GET /healthz on 127.0.0.1:$WAYFINDER_PORT).
if CommandLine.arguments.dropFirst().first == "healthcheck" {
    Healthcheck.run(environment: ProcessInfo.processInfo.environment)
}

let settings: Settings
do {
    switch try Settings.parse(arguments: Array(CommandLine.arguments.dropFirst()), environment: ProcessInfo.processInfo.environment) {
    case .help:
        print(Settings.help, terminator: "")
        exit(0)
    case .run(let parsed):
        settings = parsed
    }
} catch {
    fail(error.message)
}

// Signals are taken synchronously by this thread (sigwait); every other thread blocks them. Blocked
// before the store or anything else can start a thread (threads inherit the mask), so a SIGTERM
// during start-up is handled too instead of killing the process.
var signals = sigset_t()
sigemptyset(&signals)
sigaddset(&signals, SIGTERM)
sigaddset(&signals, SIGINT)
pthread_sigmask(SIG_BLOCK, &signals, nil)
signal(SIGPIPE, SIG_IGN)

let logger = Logger(level: Logger.Level(name: settings.logLevel) ?? .info)
let storeConfiguration = StoreConfiguration(
    ttlMillis: Int64(settings.sessionTTLSeconds * 1000), idempotencyRecordsPerSession: settings.idempotencyKeysPerSession)
let store: any SessionStore
do {
    if settings.store == "memory" {
        store = MemoryStore(configuration: storeConfiguration)
    } else if settings.store.hasPrefix("redis://") {
        // One pooled connection per event loop, plus a few for event streams and the sweeper.
        store = try RedisStore(url: settings.store, configuration: storeConfiguration, poolSize: settings.threads + 4)
    } else {
        store = try SQLiteStore(path: String(settings.store.dropFirst("sqlite:".count)), configuration: storeConfiguration)
    }
} catch {
    logger.flush()
    fail("cannot open the store \(settings.store): \(error)")
}

var apiConfiguration = APIConfiguration()
apiConfiguration.sessionTTLMillis = storeConfiguration.ttlMillis
apiConfiguration.cacheCapacity = settings.cacheSize
apiConfiguration.maxSessions = settings.maxSessions
apiConfiguration.publicDirectory = settings.publicDirectory
apiConfiguration.heartbeatSeconds = settings.heartbeatSeconds
apiConfiguration.unusedSessionTTLMillis = Int64(settings.unusedSessionTTLSeconds * 1000)
apiConfiguration.maxSessionBytes = settings.maxSessionBytes
apiConfiguration.maxIdempotencyKeyBytes = settings.maxIdempotencyKeyBytes
apiConfiguration.maxStreamsPerSession = settings.maxStreamsPerSession
apiConfiguration.maxStreams = settings.maxStreams
apiConfiguration.createRatePerSecond = settings.createRate > 0 ? settings.createRate : nil
apiConfiguration.createBurst = settings.createBurst
apiConfiguration.clientAddressHeader = settings.clientIPHeader
if let document = FileManager.default.contents(atPath: settings.openAPI) {
    apiConfiguration.openAPIDocument = Array(document)
} else {
    logger.log(.warn, "openapi_missing", [("path", .string(settings.openAPI))])
}

var httpConfiguration = HTTPServerConfiguration(host: settings.host, port: settings.port, threads: settings.threads)
httpConfiguration.maxConnections = settings.maxConnections
// Descriptors: the soft limit goes up to the hard one, and connections stay below it with room
// for the listeners, epoll and eventfds of every loop, the store's files and a static file
// being read, so a full house of connections never leaves the server without a descriptor.
if let descriptors = DescriptorLimit.raiseToHardLimit() {
    let room = max(1, descriptors - (64 + 8 * settings.threads))
    if settings.maxConnections > room {
        logger.log(.warn, "max_connections_lowered", [
            ("maxConnections", .int(settings.maxConnections)), ("descriptorLimit", .int(descriptors)), ("lowered", .int(room)),
        ])
        httpConfiguration.maxConnections = room
    }
}
httpConfiguration.maxBodyBytes = settings.maxBodyBytes
httpConfiguration.headerTimeout = Duration.milliseconds(Int(settings.headerTimeoutSeconds * 1000))
httpConfiguration.idleTimeout = Duration.milliseconds(Int(settings.idleTimeoutSeconds * 1000))
httpConfiguration.shutdownDeadline = Duration.milliseconds(Int(settings.shutdownDeadlineSeconds * 1000))
httpConfiguration.bodyTimeout = Duration.milliseconds(Int(settings.bodyTimeoutSeconds * 1000))
httpConfiguration.minBodyBytesPerSecond = settings.minBodyRate
httpConfiguration.maxStreamBufferBytes = settings.maxStreamBufferBytes

let serverBox = ServerBox()
let api = WayfinderAPI(
    engine: DemoApp.engine, store: store, configuration: apiConfiguration, logger: logger,
    openConnections: { serverBox.server?.openConnections ?? 0 })
let server = HTTPServer(configuration: httpConfiguration, handler: api)
serverBox.server = server

do {
    try server.start()
} catch {
    logger.flush()
    fail("cannot listen on \(settings.host):\(settings.port): \(error)")
}
api.start()
logger.log(.info, "listening", [
    ("host", .string(settings.host)), ("port", .int(server.boundPort)), ("threads", .int(settings.threads)),
    ("store", .string(settings.store == "memory" ? "memory" : settings.store.hasPrefix("redis://") ? "redis" : "sqlite")),
])

/// Waits for SIGTERM or SIGINT (blocked in every thread, so only `sigwait` sees them).
func waitForSignal() -> Int32 {
    var set = sigset_t()
    sigemptyset(&set)
    sigaddset(&set, SIGTERM)
    sigaddset(&set, SIGINT)
    var received: Int32 = 0
    sigwait(&set, &received)
    return received
}

let received = waitForSignal()
logger.log(.info, "shutting_down", [("signal", .int(Int(received))), ("deadlineSeconds", .double(settings.shutdownDeadlineSeconds))])
// A second signal while draining exits at once.
Thread.detachNewThread { _exit(128 + waitForSignal()) }
api.shutdown()
server.shutdown()
server.waitUntilStopped()
if let sqlite = store as? SQLiteStore {
    // Fold the WAL (up to about 64 MiB between background checkpoints) into the database now,
    // so the next start does not replay it.
    do { try sqlite.close() } catch {
        logger.log(.warn, "checkpoint_failed", [("error", .string("\(error)"))])
    }
}
logger.log(.info, "stopped")
logger.flush()
exit(0)
