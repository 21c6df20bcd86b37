import Foundation
import NotesApp
import WayfinderServer

// The notes app of the live-upgrade tests, served by the server library: `notes-server 1 …` or
// `notes-server 2 …` (then every setting of the `wayfinder` command), so that two versions of
// one app can run side by side on one store.
var arguments = Array(CommandLine.arguments.dropFirst())
let version = arguments.isEmpty ? "" : arguments.removeFirst()
switch version {
case "1": Server(NotesV1.makeApplication, name: "notes-server 1").run(arguments: arguments)
case "2": Server(NotesV2.makeApplication, name: "notes-server 2").run(arguments: arguments)
default:
    FileHandle.standardError.write(Data("usage: notes-server 1|2 [--setting value]...\n".utf8))
    exit(2)
}
