import Foundation
import Glibc
import Testing

/// The real `wayfinder` executable, found next to the test bundle in the build products folder.
final class BinaryServer {
    let process: Process
    let port: Int

    static var executablePath: String {
        let me = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        return URL(fileURLWithPath: me).deletingLastPathComponent().appendingPathComponent("wayfinder").path
    }

    /// The `--jwt-*` flags, with the secret in a file of its own (written once per test run).
    static func identityArguments() throws -> [String] {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("wayfinder-e2e-identity-\(getpid())").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return try TestIdentity.arguments(folder: folder)
    }

    /// Starts the binary and waits (at most ~10 s) for `/healthz` to answer 200.
    init(arguments: [String], currentDirectory: String? = nil, logFile: String? = nil, environment: [String: String] = [:]) throws {
        let path = Self.executablePath
        try #require(FileManager.default.isExecutableFile(atPath: path), "no wayfinder binary at \(path); build it first")
        port = try Self.freePort()
        process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        // It trusts the tests' identity provider and takes their operator key, as the in-process servers do.
        process.arguments = ["--port", String(port), "--threads", "2"] + (try Self.identityArguments()) + arguments
        process.environment = ProcessInfo.processInfo.environment.merging(["WAYFINDER_OPERATOR_KEY": TestIdentity.operatorKey]) { $1 }
            .merging(environment) { $1 }
        if let currentDirectory { process.currentDirectoryURL = URL(fileURLWithPath: currentDirectory) }
        if let logFile {
            let created = FileManager.default.createFile(atPath: logFile, contents: nil)
            let handle = try #require(created ? FileHandle(forWritingAtPath: logFile) : nil, "cannot create \(logFile)")
            process.standardOutput = handle
        } else {
            process.standardOutput = FileHandle.nullDevice
        }
        process.standardError = FileHandle.nullDevice
        try process.run()
        let client = Client(port: port, timeoutMilliseconds: 1_000)
        var healthy = false
        for _ in 0..<100 where process.isRunning {
            if let reply = try? client.call("GET", "/healthz"), reply.status == 200 {
                healthy = true
                break
            }
            Thread.sleep(forTimeInterval: 0.1)
        }
        if !healthy { kill9() }
        try #require(healthy, "wayfinder did not answer /healthz within 10 s")
    }

    /// `kill -9` and reap.
    func kill9() {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    /// An ephemeral port that was free a moment ago.
    static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
        }
        try #require(bound == 0)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
