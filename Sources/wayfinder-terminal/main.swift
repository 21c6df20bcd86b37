import Foundation
import WayfinderClient

/// Starts or resumes the session the command line asks for, then hands the terminal to it.
func start(_ arguments: Arguments) async throws(WayfinderError) -> WayfinderSession {
    if let file = arguments.sessionFile, let data = FileManager.default.contents(atPath: file),
        let credentials = try? JSONDecoder().decode(SessionCredentials.self, from: data)
    {
        do {
            return try await WayfinderSession.resume(on: arguments.server, credentials: credentials)
        } catch .problem(let problem) where problem.code == .notFound {
            // Ended or expired: start a new one below.
        }
    }
    let session = try await WayfinderSession.create(on: arguments.server, context: arguments.context, deepLink: arguments.deepLink)
    if let file = arguments.sessionFile {
        let data = (try? JSONEncoder().encode(session.credentials)) ?? Data()
        if !FileManager.default.createFile(atPath: file, contents: data, attributes: [.posixPermissions: 0o600]) {
            FileHandle.standardError.write(Data("wayfinder-terminal: cannot write \(file)\n".utf8))
        }
    }
    return session
}

let arguments: Arguments
do {
    switch try Arguments.parse(Array(CommandLine.arguments.dropFirst())) {
    case .help:
        print(Arguments.usage)
        exit(0)
    case .run(let parsed):
        arguments = parsed
    }
} catch {
    FileHandle.standardError.write(Data("wayfinder-terminal: \(error)\n\n\(Arguments.usage)\n".utf8))
    exit(2)
}

do {
    let session = try await start(arguments)
    let app = TerminalApp(session: session, state: await session.state, server: arguments.server.absoluteString)
    await app.run()
    print("\nSession \(session.credentials.id) left running" + (arguments.sessionFile.map { "; resume it with --session-file \($0)" } ?? "."))
} catch {
    FileHandle.standardError.write(Data("wayfinder-terminal: \(error)\n".utf8))
    exit(1)
}
