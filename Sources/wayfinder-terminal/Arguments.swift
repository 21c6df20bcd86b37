import Foundation
import WayfinderClient

/// The command line: the server's URL and how to start or resume the session.
struct Arguments {
    var server: URL
    /// Where the session's id and token are kept between runs.
    var sessionFile: String?
    /// Context members for a new session.
    var context: [String: WireValue] = [:]
    /// A deep link to open when a new session starts.
    var deepLink: String?

    static let usage = """
        wayfinder-terminal — a thin Wayfinder client in the terminal.

        Usage: wayfinder-terminal [options] SERVER_URL
               wayfinder-terminal http://127.0.0.1:8080

        Shows the screen on top of a Wayfinder session as text — its title, its components, a
        number on every field, toggle, button and list row, and the tab bar — and follows the
        server's pushes live. It knows no app: everything comes from the session's state.

        Keys: a number and Enter presses a button or row, edits a field (Enter saves it), flips a
        toggle; b back; t<n> selects tab n; g <link> opens a deep link; r reloads; q quits.

        Options:
          --session-file PATH   keep the session's id and token in PATH (mode 0600) and resume
                                that session next time (a new one if it has ended)
          --context KEY=VALUE   a context member for a new session; VALUE is read as JSON if it
                                parses (true, 3, "x"), else as a string. Repeatable.
          --deep-link URL       a deep link to open when a new session starts
          -h, --help            this help
        """

    /// What the command line asks for: a run, or the help.
    enum Parsed {
        case run(Arguments)
        case help
    }

    struct Invalid: Error, CustomStringConvertible {
        var description: String
    }

    static func parse(_ arguments: [String]) throws -> Parsed {
        var server: URL?
        var parsed = Arguments(server: URL(fileURLWithPath: "/"))
        var rest = arguments[...]
        func value(_ flag: String) throws -> String {
            guard let value = rest.popFirst() else { throw Invalid(description: "\(flag) needs a value") }
            return value
        }
        while let argument = rest.popFirst() {
            switch argument {
            case "-h", "--help":
                return .help
            case "--session-file":
                parsed.sessionFile = try value(argument)
            case "--deep-link":
                parsed.deepLink = try value(argument)
            case "--context":
                let pair = try value(argument)
                guard let equals = pair.firstIndex(of: "="), equals != pair.startIndex else {
                    throw Invalid(description: "--context takes KEY=VALUE, not \(pair)")
                }
                let raw = String(pair[pair.index(after: equals)...])
                let json = try? JSONDecoder().decode(WireValue.self, from: Data(raw.utf8))
                parsed.context[String(pair[..<equals])] = json ?? .string(raw)
            case let flag where flag.hasPrefix("-"):
                throw Invalid(description: "unknown option \(flag)")
            default:
                guard server == nil else { throw Invalid(description: "one server URL only (got \(argument) too)") }
                guard let url = URL(string: argument), ["http", "https"].contains(url.scheme?.lowercased() ?? ""), url.host != nil else {
                    throw Invalid(description: "not an http(s) URL: \(argument)")
                }
                server = url
            }
        }
        guard let server else { throw Invalid(description: "the server's URL is missing") }
        parsed.server = server
        return .run(parsed)
    }
}
