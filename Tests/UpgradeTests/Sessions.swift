@testable import NotesApp
import Testing
import WayfinderCore
import WayfinderTesting

/// Sessions the upgrade tests start from.
enum Sessions {
    /// Version 2's model of the two notes of ``v1WithTwoNotes()``.
    static let twoNotes: JSONObject = ["items": [["id": "1", "text": "Milk"], ["id": "2", "text": "Eggs"]], "nextID": 3]

    /// Version 1, signed in as ada@example.com, with the notes "Milk" and "Eggs", on the list.
    static func v1WithTwoNotes() throws -> TestSession {
        var session = try TestSession(try NotesV1.makeApplication(), context: ["signedIn": true, "user": "ada@example.com"])
        try session.send(NotesV1.NotesFlow.Route.add(text: "Milk", priority: nil)) { $0.model = ["notes": ["Milk"]] }
        try session.send(NotesV1.NotesFlow.Route.add(text: "Eggs", priority: 3)) { $0.model = ["notes": ["Milk", "Eggs"]] }
        return session
    }

    /// ``v1WithTwoNotes()`` with the second note open.
    static func v1OnSecondNote() throws -> TestSession {
        var session = try v1WithTwoNotes()
        try session.send(NotesV1.NotesFlow.Route.open(note: "2")) {
            $0.stack = ["list", #"detail(note: "2")"#]
            $0.navigation = #"[list, detail(note: "2")]"#
            $0.transitions = [#"push detail(note: "2")"#]
        }
        return session
    }

    /// ``v1WithTwoNotes()`` served by version 2 (with all its migrations), on its list.
    static func v2WithTwoNotes() throws -> TestSession {
        var session = try v1WithTwoNotes()
        try session.upgrade(to: try NotesV2.makeApplication()) {
            $0.stack = ["notes"]
            $0.navigation = "[notes]"
            $0.transitions = ["update notes"]
            $0.model = twoNotes
        }
        return session
    }

    /// ``v2WithTwoNotes()`` with the second note open, then closed again when `closed`.
    static func v2OnSecondNote(closed: Bool = false) throws -> TestSession {
        var session = try v2WithTwoNotes()
        try session.send(NotesV2.NotesFlow.Route.open(id: "2")) {
            $0.stack = ["notes", #"detail(id: "2")"#]
            $0.navigation = #"[notes, detail(id: "2")]"#
            $0.transitions = [#"push detail(id: "2")"#]
        }
        if closed {
            try session.back {
                $0.stack = ["notes"]
                $0.navigation = "[notes]"
                $0.transitions = [#"pop detail(id: "2")"#]
            }
        }
        return session
    }
}
