import Foundation
import Glibc
import WayfinderAPI
import WayfinderCore
import WayfinderHTTP
import WayfinderStore

/// Serves an ``Application`` with everything the `wayfinder` executable does: every setting as a
/// flag and a `WAYFINDER_*` environment variable, `--help`, the SQLite (default), memory and
/// Redis stores, the web client at `/` and the contract at `/openapi.yaml`, `/metrics`, JSON
/// logs, graceful shutdown on SIGTERM and SIGINT, and the `healthcheck`, `replay` and `catalog`
/// subcommands (`catalog --diff OLD.json` checks a release's compatibility in CI).
///
/// A team's whole `main.swift`:
///
/// ```swift
/// import WayfinderServer
/// import ShopApp
///
/// Server(Shop.makeApplication).run()
/// ```
public struct Server: Sendable {
    private let makeApplication: @Sendable () throws -> Application
    private let makeServices: @Sendable (_ dataDirectory: String?) throws -> EffectServices
    private let authenticator: (any Authenticator)?
    private let name: String

    /// - Parameters:
    ///   - makeApplication: builds the application (its checks run here: a broken app stops the
    ///     start with every problem listed and exit code 2).
    ///   - services: builds the services that run the app's effects, given the folder of the
    ///     SQLite store (nil with the memory or Redis store) for services that keep files. Every
    ///     flow that asks for effects needs one, or the server does not start.
    ///   - authenticator: who a request's user is, if the team checks it its own way (a signed
    ///     cookie); nil: the `--jwt-*` settings configure the built-in bearer-JWT check, or
    ///     sessions have no identity (docs/security.md).
    ///   - name: the command's name in `--help` and messages (default: the executable's name).
    public init(
        _ makeApplication: @escaping @Sendable () throws -> Application,
        services: @escaping @Sendable (_ dataDirectory: String?) throws -> EffectServices = { _ in EffectServices() },
        authenticator: (any Authenticator)? = nil,
        name: String? = nil
    ) {
        self.makeApplication = makeApplication
        self.makeServices = services
        self.authenticator = authenticator
        self.name = name ?? CommandLine.arguments.first.map { URL(filePath: $0).lastPathComponent } ?? "wayfinder"
    }

    /// Runs the command line: `healthcheck`, `replay BUNDLE.json`, `catalog` (see `catalog --help`),
    /// `--help`, or the server until SIGTERM or SIGINT, then exits (0 after a graceful stop, 2 for
    /// bad settings or a broken application).
    public func run(
        arguments: [String] = Array(CommandLine.arguments.dropFirst()),
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> Never {
        if arguments.first == "healthcheck" { Healthcheck.run(Array(arguments.dropFirst()), environment: environment, name: name) }
        if arguments.first == "replay" { ReplayCommand.run(Array(arguments.dropFirst()), makeApplication: makeApplication) }
        if arguments.first == "catalog" {
            let result = CatalogCommand.run(Array(arguments.dropFirst()), name: name, application: makeApplication)
            print(result.output, terminator: "")
            FileHandle.standardError.write(Data(result.errors.utf8))
            exit(result.status)
        }
        let settings: Settings
        do {
            switch try Settings.parse(arguments: arguments, environment: environment) {
            case .help:
                print(Settings.help(name: name), terminator: "")
                exit(0)
            case .run(let parsed):
                settings = parsed
            }
        } catch {
            fail(error.message)
        }
        // Signals are taken synchronously by this thread (sigwait); every other thread blocks
        // them. Blocked before the store or anything else can start a thread (threads inherit the
        // mask), so a SIGTERM during start-up is handled too instead of killing the process.
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGTERM)
        sigaddset(&signals, SIGINT)
        pthread_sigmask(SIG_BLOCK, &signals, nil)
        signal(SIGPIPE, SIG_IGN)

        let running: RunningServer
        do {
            running = try start(settings)
        } catch let error as StartError {
            fail(error.message)
        } catch {
            fail("\(error)")
        }
        let received = Self.waitForSignal()
        running.logger.log(.info, "shutting_down", [
            ("signal", .int(Int(received))), ("deadlineSeconds", .double(settings.shutdownDeadlineSeconds)),
        ])
        // A second signal while draining exits at once.
        Thread.detachNewThread { _exit(128 + Self.waitForSignal()) }
        running.stop()
        running.logger.log(.info, "stopped")
        running.logger.flush()
        exit(0)
    }

    /// Starts the server in this process with the settings `arguments` and `environment` give
    /// (as ``run(arguments:environment:)`` would), and returns at once: for tests that serve an
    /// app on a free port (`--port 0`). Signals are left alone.
    public func start(arguments: [String], environment: [String: String] = [:]) throws -> RunningServer {
        let settings: Settings
        do {
            guard case .run(let parsed) = try Settings.parse(arguments: arguments, environment: environment) else {
                throw StartError(message: "--help is not a setting to start with")
            }
            settings = parsed
        } catch let error as Settings.Invalid {
            throw StartError(message: error.message)
        }
        return try start(settings)
    }

    private func start(_ settings: Settings) throws -> RunningServer {
        let application: Application
        do { application = try makeApplication() } catch { throw StartError(message: "\(error)") }
        let dataDirectory: String? = settings.store.hasPrefix("sqlite:")
            ? String(settings.store.dropFirst("sqlite:".count)).split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
            : nil
        let services: EffectServices
        do { services = try makeServices(dataDirectory.map { $0.isEmpty ? "." : $0 }) } catch {
            throw StartError(message: "cannot start the app's services: \(error)")
        }
        let unserved = application.flowsWithEffects.filter { services.service(for: $0) == nil }
        guard unserved.isEmpty else {
            throw StartError(message: "no service is registered for the effects of \(unserved.joined(separator: ", "))")
        }

        let logger = Logger(level: Logger.Level(name: settings.logLevel) ?? .info)
        let storeConfiguration = StoreConfiguration(
            ttlMillis: Int64(settings.sessionTTLSeconds * 1000), idempotencyRecordsPerSession: settings.idempotencyKeysPerSession,
            journalEntriesPerSession: settings.journalEntries, journalBytesPerSession: settings.journalBytes,
            idempotencyBytesPerSession: settings.idempotencyBytesPerSession)
        let store: any SessionStore
        do {
            if settings.store == "memory" {
                store = MemoryStore(configuration: storeConfiguration)
            } else if settings.store.hasPrefix("redis://") || settings.store.hasPrefix("redis+cluster://") {
                let redis = try RedisStore(url: settings.store, configuration: storeConfiguration, waitReplicas: settings.redisWaitReplicas)
                // Serve once other instances' changes arrive (event streams opened before would
                // catch up anyway); a Redis that is away is reported by requests, as 503.
                if !redis.waitUntilReceivingChanges(timeout: .seconds(3)) {
                    logger.log(.warn, "redis_changes_not_subscribed", [("waitedMillis", .int(3_000))])
                }
                store = redis
            } else {
                store = try SQLiteStore(
                    path: String(settings.store.dropFirst("sqlite:".count)), configuration: storeConfiguration, shared: settings.sqliteShared)
            }
        } catch {
            logger.flush()
            throw StartError(message: "cannot open the store \(settings.store): \(error)")
        }

        var apiConfiguration = APIConfiguration()
        apiConfiguration.sessionTTLMillis = storeConfiguration.ttlMillis
        apiConfiguration.cacheCapacity = settings.cacheSize
        apiConfiguration.maxSessions = settings.maxSessions
        apiConfiguration.publicDirectory = settings.publicDirectory
        apiConfiguration.heartbeatSeconds = settings.heartbeatSeconds
        apiConfiguration.gzipMinBytes = settings.gzipMinBytes
        apiConfiguration.gzipLevel = settings.gzipLevel
        apiConfiguration.effectWait = .milliseconds(Int(settings.effectWaitSeconds * 1000))
        apiConfiguration.journal = settings.journal
        apiConfiguration.journalStateInterval = max(1, min(JournalRecord.stateInterval, settings.journalEntries / 4))
        apiConfiguration.unusedSessionTTLMillis = Int64(settings.unusedSessionTTLSeconds * 1000)
        apiConfiguration.maxSessionBytes = settings.maxSessionBytes
        apiConfiguration.maxIdempotencyKeyBytes = settings.maxIdempotencyKeyBytes
        apiConfiguration.maxStreamsPerSession = settings.maxStreamsPerSession
        apiConfiguration.maxStreams = settings.maxStreams
        apiConfiguration.createRatePerSecond = settings.createRate > 0 ? settings.createRate : nil
        apiConfiguration.createBurst = settings.createBurst
        apiConfiguration.clientAddressHeader = settings.clientIPHeader
        apiConfiguration.trustedProxies = settings.trustedProxies
        apiConfiguration.maxStreamsPerAddress = settings.maxStreamsPerAddress > 0 ? settings.maxStreamsPerAddress : nil
        apiConfiguration.routeRatePerSecond = settings.routeRate > 0 ? settings.routeRate : nil
        apiConfiguration.routeBurst = settings.routeBurst
        if let jwt = try settings.identity.jwtAuthenticator() {
            guard authenticator == nil else {
                throw StartError(message: "the --jwt settings and the app's own authenticator exclude each other: keep one")
            }
            for reason in jwt.ignoredKeys { logger.log(.warn, "jwks_key_ignored", [("reason", .string(reason))]) }
            apiConfiguration.authenticator = jwt
        } else {
            apiConfiguration.authenticator = authenticator
        }
        apiConfiguration.operatorKey = try settings.identity.resolvedOperatorKey()
        if let document = FileManager.default.contents(atPath: settings.openAPI) {
            apiConfiguration.openAPIDocument = Array(document)
        } else {
            logger.log(.warn, "openapi_missing", [("path", .string(settings.openAPI))])
        }

        var httpConfiguration = HTTPServerConfiguration(host: settings.host, port: settings.port, threads: settings.threads)
        httpConfiguration.maxConnections = settings.maxConnections
        httpConfiguration.maxConnectionsPerAddress = settings.maxConnectionsPerAddress > 0 ? settings.maxConnectionsPerAddress : nil
        httpConfiguration.trustedProxies = settings.trustedProxies
        // Descriptors: the soft limit goes up to the hard one, and connections stay below it with
        // room for the listeners, epoll and eventfds of every loop, the store's files and a static
        // file being read, so a full house of connections never leaves the server without one.
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
            engine: Engine(application), store: store, configuration: apiConfiguration, logger: logger, services: services,
            openConnections: { serverBox.server?.openConnections ?? 0 })
        let server = HTTPServer(configuration: httpConfiguration, handler: api)
        serverBox.server = server
        do {
            try server.start()
        } catch {
            logger.flush()
            throw StartError(message: "cannot listen on \(settings.host):\(settings.port): \(error)")
        }
        api.start()
        logger.log(.info, "listening", [
            ("host", .string(settings.host)), ("port", .int(server.boundPort)), ("threads", .int(settings.threads)),
            ("version", .string(application.version)),
            ("store", .string(settings.store == "memory" ? "memory" : settings.store.hasPrefix("redis+cluster://") ? "redis-cluster" : settings.store.hasPrefix("redis://") ? "redis" : "sqlite")),
        ])
        return RunningServer(port: server.boundPort, api: api, server: server, store: store, logger: logger)
    }

    /// Waits for SIGTERM or SIGINT (blocked in every thread, so only `sigwait` sees them).
    private static func waitForSignal() -> Int32 {
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGTERM)
        sigaddset(&set, SIGINT)
        var received: Int32 = 0
        sigwait(&set, &received)
        return received
    }

    private func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data("\(name): \(message)\n".utf8))
        exit(2)
    }
}

/// Why a server did not start: bad settings, a broken application, a store or port it could not open.
public struct StartError: Error, Sendable, CustomStringConvertible {
    /// One line naming what failed.
    public var message: String
    public var description: String { message }
}

/// A server started by ``Server/start(arguments:environment:)``.
public final class RunningServer: Sendable {
    /// The port it listens on (the one picked when started with `--port 0`).
    public let port: Int
    let api: WayfinderAPI
    let server: HTTPServer
    let store: any SessionStore
    let logger: Logger

    init(port: Int, api: WayfinderAPI, server: HTTPServer, store: any SessionStore, logger: Logger) {
        self.port = port
        self.api = api
        self.server = server
        self.store = store
        self.logger = logger
    }

    /// Drains and stops, as SIGTERM does: stops accepting, finishes in-flight requests, ends
    /// event streams within the shutdown deadline, and folds the SQLite WAL into the database.
    public func stop() {
        api.shutdown()
        server.shutdown()
        server.waitUntilStopped()
        if let sqlite = store as? SQLiteStore {
            // Fold the WAL (up to about 64 MiB between background checkpoints) into the database
            // now, so the next start does not replay it.
            do { try sqlite.close() } catch {
                logger.log(.warn, "checkpoint_failed", [("error", .string("\(error)"))])
            }
        }
    }
}
