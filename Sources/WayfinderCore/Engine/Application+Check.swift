/// An application whose declarations contradict each other, with every problem found.
///
/// Building an ``Application`` checks what the compiler cannot: two flows with one name, a child
/// or tab flow that is not registered, a deep-link pattern that no flow opens or whose captures
/// are not its case's labels, a route that no screen offers or a screen that offers one twice, a
/// route case with an unlabelled value. (A route offered on a screen its flow does not declare,
/// or two routes of one name in a flow, cannot be written: `routes(on:)` takes the flow's own
/// screen names and returns its own route names.)
public struct ApplicationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// One sentence per problem, each naming the flow, screen, route or pattern at fault.
    public var problems: [String]

    public var description: String {
        "the application has \(problems.count) problem\(problems.count == 1 ? "" : "s"):\n"
            + problems.map { "  - " + $0 }.joined(separator: "\n")
    }
}

extension Application {
    /// Problems between the flows: the scheme, names, children, deep links (with the problems
    /// found reading the patterns); then each flow's own.
    func check(linkProblems: [String]) -> [String] {
        var problems: [String] = []
        if scheme.isEmpty || !scheme.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) }) {
            problems.append("scheme '\(scheme)' is not a URL scheme (letters, digits, +, - and . only)")
        }
        for (index, flow) in flows.enumerated() {
            if let first = flows.firstIndex(where: { $0.name == flow.name }), first < index {
                problems.append("\(flows[first].typeName) and \(flow.typeName) are both named '\(flow.name)'")
            }
        }
        for flow in flows {
            for child in flow.children where self.flow(named: child) == nil {
                problems.append("\(flow.typeName) declares child flow '\(child)', which is not registered in the application")
            }
        }
        problems += linkProblems
        for link in deepLinks where !flows.contains(where: { $0.deepLinks.contains(link.pattern) }) {
            problems.append("deep link '\(scheme)://\(link.pattern)' is opened by no flow: list it in the deepLinks of the flow that shows it")
        }
        for flow in flows { problems += flow.problems }
        return problems
    }

    /// The patterns of a deep-link destination type, and what is wrong with them.
    static func linkPatterns<L: DeepLinkDestination>(_ type: L.Type) -> (patterns: [DeepLinkPattern], problems: [String]) {
        var patterns: [DeepLinkPattern] = []
        var problems: [String] = []
        for key in L.CodingKeys.allCases {
            let pattern = DeepLinkPattern(key.stringValue, description: L.describe(key))
            patterns.append(pattern)
            let captures = pattern.segments.filter { $0.hasPrefix("{") && $0.hasSuffix("}") }.map { String($0.dropFirst().dropLast()) }
            guard let members = try? ShapeProbe.members(of: L.self, case: key.stringValue) else {
                problems.append("deep link '\(key.stringValue)' cannot be read as a case of \(L.self)")
                continue
            }
            let labels = members.map(\.name)
            if Set(labels) != Set(captures) || labels.count != captures.count {
                problems.append(
                    "deep link '\(key.stringValue)' captures \(captures.isEmpty ? "nothing" : captures.joined(separator: ", ")) "
                        + "but its case \(L.self) reads \(labels.isEmpty ? "nothing" : labels.joined(separator: ", "))")
            }
            for member in members where ![.string, .integer, .number, .boolean].contains(member.type) {
                problems.append("deep link '\(key.stringValue)' captures '\(member.name)' into a \(member.type.rawValue): captures are strings, numbers or booleans")
            }
        }
        return (patterns, problems)
    }
}

extension Application {
    /// The members of a client's context that it may not set (``SessionContext/clientMembers``),
    /// sorted; empty when the context is the client's to give.
    public func refusedContextMembers(_ input: JSONObject) -> [String] {
        guard case .only(let allowed) = clientMembers else { return [] }
        return input.keys.filter { !allowed.contains($0) }.sorted()
    }

    /// Whether a rewind of `current` may restore the screens of `earlier`: only if `earlier` was
    /// signed in as `current` is, or not at all. Its identity must be the same, and each context
    /// member that is the server's (not in ``SessionContext/clientMembers``) must hold the same
    /// value as now, or its default (nobody signed in then). Otherwise the rewind would restore
    /// the screens of a signed-in user into a signed-out session, or into another user's. (A
    /// secret member that reads `[redacted]` then only has to be set now.)
    public func mayRewind(_ current: SessionState, to earlier: SessionState) -> Bool {
        guard current.identity == earlier.identity else { return false }
        guard case .only(let allowed) = clientMembers else { return true }
        let defaults = (try? normalizeContext([:])) ?? [:]
        func value(_ object: JSONObject, _ name: String) -> JSONValue { object[name] ?? .null }
        for name in Set(current.context.keys).union(earlier.context.keys) where !allowed.contains(name) {
            let then = value(earlier.context, name), now = value(current.context, name)
            if then == .string(JournalAction.redacted), secrets.contextMembers.contains(name) {
                // A secret the journal does not hold in clear: set then, so it must be set now.
                if now == value(defaults, name) { return false }
            } else if then != now, then != value(defaults, name) {
                return false
            }
        }
        return true
    }

    /// A `clientMembers` or `secretMembers` name that is not a member of the context is a typo
    /// (one would refuse every client that sends the member meant, the other would leave a secret
    /// in clear); a member typed ``Secret`` that `secretMembers` does not name would be shown; the
    /// variant member is counted in `/metrics` by value, so it cannot be a secret.
    static func checkContextMembers<Context: SessionContext>(_ type: Context.Type) -> [String] {
        guard Context.self != JSONObject.self else { return [] }
        let members = (try? ShapeProbe.members(of: Context.self)) ?? []
        let names = Set(members.map(\.name))
        var problems: [String] = []
        if case .only(let allowed) = Context.clientMembers {
            problems += allowed.subtracting(names).sorted().map { "\(Context.self).clientMembers names '\($0)', which is not a member of the context" }
        }
        problems += Context.secretMembers.subtracting(names).sorted().map {
            "\(Context.self).secretMembers names '\($0)', which is not a member of the context"
        }
        for member in members where Context.secretMembers.contains(member.name) && member.type != .string {
            problems.append("\(Context.self).\(member.name) is a secret member but a \(member.type.rawValue): secrets are strings (they read '[redacted]')")
        }
        for member in members where member.secret && !Context.secretMembers.contains(member.name) {
            problems.append("\(Context.self).\(member.name) is a Secret: name it in \(Context.self).secretMembers")
        }
        if let variant = Context.variantKey, Context.secretMembers.contains(variant) {
            problems.append("\(Context.self).variantKey '\(variant)' is a secret member: metrics count sessions by its value")
        }
        return problems
    }
}

/// Reads a client's context into the app's ``SessionContext`` type: member by member (every
/// problem at once, in declaration order), defaults for what is absent, then the app's rules.
struct ContextReader<Context: SessionContext>: Sendable {
    let members: [ParamSpec] = (try? ShapeProbe.members(of: Context.self)) ?? []

    @Sendable func read(_ input: JSONObject) throws -> JSONObject {
        if Context.self == JSONObject.self { return input }
        guard case .object(var merged) = try JSONValueEncoder().encode(Context()) else { return input }
        var problems: [InvalidParam] = []
        for member in members {
            guard let value = input[member.name], !value.isNull else { continue }
            if let reason = member.mismatch(value) {
                problems.append(InvalidParam(name: "context.\(member.name)", reason: reason))
            } else {
                merged[member.name] = value
            }
        }
        guard problems.isEmpty else { throw NavigationError.invalidParams(problems) }
        let context = try JSONValueDecoder().decode(Context.self, from: .object(merged)).normalized()
        guard case .object(let object) = try JSONValueEncoder().encode(context) else { return merged }
        return object
    }
}
