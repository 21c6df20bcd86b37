/// The storage form of a ``SessionState``: compact JSON written and read without Foundation.
///
/// `SessionState` is also `Codable`; this codec exists because every change of every session
/// is decoded and encoded once, and Foundation's coders cost several times more on that path.
/// The layout is versioned (`"v": 1`), records the version of the app that wrote it (`"app"`,
/// absent in states written before apps had versions), leaves out what is empty or implied (the
/// session id is the store's key; a screen's coordinator defaults to its stack's), and is
/// covered by round-trip tests.
package enum StateCodec {
    package struct DecodingError: Error, Sendable, Hashable, CustomStringConvertible {
        package var path: String
        package var description: String { "malformed stored state at \(path)" }
        package init(path: String) { self.path = path }
    }

    /// The start of a session's last encoding (everything but the modals, the pending link and
    /// the counters), reusable while the context, model, coordinator tree and root are unchanged:
    /// most changes only move a modal or bump the revision.
    package struct Memo: Sendable {
        var appVersion: String?
        var context: JSONObject = [:]
        var identity: Identity?
        var model: JSONObject = [:]
        var coordinators = Coordinator(id: "", flow: "", placement: .root)
        var root = RootNode.stack(Stack(coordinator: "", screens: []))
        /// `{"v":1,["app":…,]"context":…,["identity":…,]["model":…,]"coordinators":…,"root":…` (no closing brace).
        var prefix: [UInt8] = []
        package init() {}
    }

    package static func encode(_ state: SessionState) -> [UInt8] {
        var memo = Memo()
        return encode(state, memo: &memo)
    }

    /// `encode(state)`, byte for byte, reusing the memo's prefix when it still holds; the memo is
    /// updated for the next call.
    package static func encode(_ state: SessionState, memo: inout Memo) -> [UInt8] {
        let fits = !memo.prefix.isEmpty && memo.appVersion == state.appVersion && memo.root == state.navigation.root
            && memo.context == state.context && memo.identity == state.identity
            && memo.model == state.model && memo.coordinators == state.coordinators
        if !fits {
            var w = JSONWriter(capacity: 2048)
            w.beginObject()
            w.key("v"); w.int(1)
            if let version = state.appVersion { w.key("app"); w.string(version) }
            w.key("context"); w.value(.object(state.context))
            if let identity = state.identity { w.key("identity"); w.value(encode(identity)) }
            if !state.model.isEmpty { w.key("model"); w.value(.object(state.model)) }
            w.key("coordinators"); write(state.coordinators, &w)
            w.key("root")
            switch state.navigation.root {
            case .stack(let stack):
                w.beginObject(); w.key("stack"); write(stack, &w); w.endObject()
            case .tabs(let tabs):
                w.beginObject()
                w.key("coordinator"); w.string(tabs.coordinator)
                w.key("selected"); w.string(tabs.selected)
                w.key("tabs"); w.beginArray()
                for tab in tabs.tabs {
                    w.beginObject()
                    w.key("id"); w.string(tab.id); w.key("title"); w.string(tab.title); w.key("icon"); w.string(tab.icon)
                    w.key("stack"); write(tab.stack, &w)
                    w.endObject()
                }
                w.endArray()
                w.endObject()
            }
            memo.appVersion = state.appVersion
            memo.context = state.context
            memo.identity = state.identity
            memo.model = state.model
            memo.coordinators = state.coordinators
            memo.root = state.navigation.root
            memo.prefix = w.bytes
        }
        // The rest: what changes with nearly every action (the revision, the counters).
        var w = JSONWriter(capacity: 512)
        w.beginObject()
        if !state.navigation.modals.isEmpty {
            w.key("modals"); w.beginArray()
            for modal in state.navigation.modals {
                w.beginObject(); w.key("style"); w.string(modal.style.rawValue); w.key("stack"); write(modal.stack, &w); w.endObject()
            }
            w.endArray()
        }
        if let link = state.pendingDeepLink { w.key("pendingDeepLink"); w.string(link) }
        if !state.effects.isEmpty {
            w.key("effects"); w.value((try? JSONValueEncoder().encode(state.effects)) ?? .array([]))
        }
        w.key("revision"); w.int(state.revision)
        w.key("nextCoordinator"); w.int(state.nextCoordinator)
        w.key("nextScreen"); w.int(state.nextScreen)
        if state.nextEffect != 1 { w.key("nextEffect"); w.int(state.nextEffect) }
        w.endObject()
        // `rest` starts with `{`: it becomes the comma after the prefix. Stored states live long
        // (a million of them in memory): the result gets storage of exactly its size.
        let prefix = memo.prefix, rest = w.bytes
        return [UInt8](unsafeUninitializedCapacity: prefix.count + rest.count) { buffer, count in
            let comma = buffer.initialize(fromContentsOf: prefix)
            buffer[comma] = UInt8(ascii: ",")
            count = buffer[(comma + 1)...].initialize(fromContentsOf: rest.dropFirst())
        }
    }

    /// Reads a stored state; `session` is its id (the store's key, not repeated in the bytes).
    package static func decode(_ bytes: [UInt8], session: String) throws -> SessionState {
        let json: JSONValue
        do { json = try JSONParser.parse(bytes) } catch { throw DecodingError(path: "$ (\(error))") }
        let reader = Reader(json, "$")
        guard try reader.int("v") == 1 else { throw DecodingError(path: "$.v") }
        var state = SessionState(
            session: session, context: try reader.object("context"),
            root: try coordinator(reader.child("coordinators")))
        state.revision = try reader.int("revision")
        state.appVersion = try reader.optionalString("app")
        if reader.has("identity") { state.identity = try identity(reader.child("identity")) }
        state.model = reader.has("model") ? try reader.object("model") : [:]
        let root = try reader.child("root")
        let navigationRoot: RootNode
        if root.has("stack") {
            navigationRoot = .stack(try stack(root.child("stack")))
        } else {
            let tabs = try root.children("tabs").map { tab in
                Tab(id: try tab.string("id"), title: try tab.string("title"), icon: try tab.string("icon"), stack: try stack(tab.child("stack")))
            }
            navigationRoot = .tabs(Tabs(coordinator: try root.string("coordinator"), selected: try root.string("selected"), tabs: tabs))
        }
        let modals = try (reader.has("modals") ? reader.children("modals") : []).map { modal in
            guard let style = ModalStyle(rawValue: try modal.string("style")) else { throw DecodingError(path: modal.path + ".style") }
            return Modal(style: style, stack: try stack(modal.child("stack")))
        }
        state.navigation = Navigation(root: navigationRoot, modals: modals)
        state.pendingDeepLink = try reader.optionalString("pendingDeepLink")
        state.nextCoordinator = try reader.int("nextCoordinator")
        state.nextScreen = try reader.int("nextScreen")
        if reader.has("effects") {
            do { state.effects = try JSONValueDecoder().decode([PendingEffect].self, from: reader.member("effects")) } catch {
                throw DecodingError(path: "$.effects (\(error))")
            }
        }
        if reader.has("nextEffect") { state.nextEffect = try reader.int("nextEffect") }
        return state
    }

    /// The bytes every state saved by version `appVersion` of an app starts with: a server
    /// compares a stored state's first bytes with them to know, without decoding it, that its
    /// own version saved it.
    public static func prefix(appVersion: String) -> [UInt8] {
        var w = JSONWriter(capacity: 32)
        w.beginObject()
        w.key("v"); w.int(1)
        w.key("app"); w.string(appVersion)
        var bytes = w.bytes
        bytes.append(UInt8(ascii: ","))
        return bytes
    }

    /// An identity as stored: `{"sub":…,"iss":…[,"claims":…]}`.
    static func encode(_ identity: Identity) -> JSONValue {
        var object: JSONObject = ["sub": .string(identity.subject), "iss": .string(identity.issuer)]
        if !identity.claims.isEmpty { object["claims"] = .object(identity.claims) }
        return .object(object)
    }

    private static func identity(_ reader: Reader) throws -> Identity {
        Identity(
            subject: try reader.string("sub"), issuer: try reader.string("iss"),
            claims: reader.has("claims") ? try reader.object("claims") : [:])
    }

    /// What can still be read of stored bytes that do not decode as a state (empty when nothing):
    /// the context, identity and model a rebuilt session keeps, and the app version and layout
    /// that tell whether a newer version wrote them.
    static func salvage(_ bytes: [UInt8]) -> (context: JSONObject, identity: Identity?, model: JSONObject, appVersion: String?, layout: Int) {
        guard let json = try? JSONParser.parse(bytes) else { return ([:], nil, [:], nil, 1) }
        let identity = json["identity"].flatMap { try? Self.identity(Reader($0, "$.identity")) }
        return (
            json["context"]?.objectValue ?? [:], identity, json["model"]?.objectValue ?? [:], json["app"]?.stringValue,
            json["v"]?.intValue ?? 1)
    }

    // MARK: Writing

    private static func write(_ node: Coordinator, _ w: inout JSONWriter) {
        w.beginObject()
        w.key("id"); w.string(node.id)
        w.key("flow"); w.string(node.flow)
        w.key("placement")
        switch node.placement {
        case .root: w.string("root")
        case .push: w.string("push")
        case .tab(let id): w.string("tab:" + id)
        case .present(let style): w.string("present:" + style.rawValue)
        }
        if !node.data.isNull { w.key("data"); w.value(node.data) }
        if !node.children.isEmpty {
            w.key("children"); w.beginArray(); for child in node.children { write(child, &w) }; w.endArray()
        }
        w.endObject()
    }

    private static func write(_ stack: Stack, _ w: inout JSONWriter) {
        w.beginObject()
        w.key("coordinator"); w.string(stack.coordinator)
        w.key("screens"); w.beginArray()
        for screen in stack.screens {
            w.beginObject()
            w.key("id"); w.string(screen.id)
            w.key("name"); w.string(screen.name)
            if screen.coordinator != stack.coordinator { w.key("coordinator"); w.string(screen.coordinator) }
            if !screen.params.isEmpty { w.key("params"); w.value(.object(screen.params)) }
            if !screen.form.isEmpty { w.key("form"); w.value(.object(screen.form)) }
            if let notice = screen.notice {
                w.key("notice"); w.beginObject()
                w.key("style"); w.string(notice.style.rawValue); w.key("text"); w.string(notice.text)
                w.endObject()
            }
            if !screen.waitingFor.isEmpty {
                w.key("waitingFor"); w.beginArray(); for id in screen.waitingFor { w.string(id) }; w.endArray()
            }
            w.endObject()
        }
        w.endArray()
        w.endObject()
    }

    // MARK: Reading

    private static func coordinator(_ r: Reader) throws -> Coordinator {
        let placementText = try r.string("placement")
        let placement: Placement
        switch placementText {
        case "root": placement = .root
        case "push": placement = .push
        default:
            if placementText.hasPrefix("tab:") {
                placement = .tab(String(placementText.dropFirst(4)))
            } else if placementText.hasPrefix("present:"), let style = ModalStyle(rawValue: String(placementText.dropFirst(8))) {
                placement = .present(style)
            } else {
                throw DecodingError(path: r.path + ".placement")
            }
        }
        return Coordinator(
            id: try r.string("id"), flow: try r.string("flow"), placement: placement,
            children: try (r.has("children") ? r.children("children") : []).map(coordinator), data: r.value["data"] ?? .null)
    }

    private static func stack(_ r: Reader) throws -> Stack {
        let owner = try r.string("coordinator")
        return Stack(
            coordinator: owner,
            screens: try r.children("screens").map { s in
                var notice: Notice? = nil
                if s.has("notice") {
                    let n = try s.child("notice")
                    guard let style = Notice.Style(rawValue: try n.string("style")) else { throw DecodingError(path: n.path + ".style") }
                    notice = Notice(style, try n.string("text"))
                }
                return ScreenInstance(
                    id: try s.string("id"), name: try s.string("name"),
                    coordinator: s.has("coordinator") ? try s.string("coordinator") : owner,
                    params: s.value["params"]?.objectValue ?? [:], form: s.value["form"]?.objectValue ?? [:], notice: notice,
                    waitingFor: s.value["waitingFor"]?.arrayValue?.compactMap(\.stringValue) ?? [])
            })
    }

    /// Typed access into a parsed value that names the bad path.
    private struct Reader {
        let value: JSONValue
        let path: String
        init(_ value: JSONValue, _ path: String) {
            self.value = value
            self.path = path
        }

        func has(_ key: String) -> Bool { value[key] != nil && value[key] != .null }
        func member(_ key: String) throws -> JSONValue {
            guard let member = value[key] else { throw DecodingError(path: path + "." + key) }
            return member
        }
        func string(_ key: String) throws -> String {
            guard let s = try member(key).stringValue else { throw DecodingError(path: path + "." + key) }
            return s
        }
        func optionalString(_ key: String) throws -> String? {
            guard let member = value[key], !member.isNull else { return nil }
            guard let s = member.stringValue else { throw DecodingError(path: path + "." + key) }
            return s
        }
        func int(_ key: String) throws -> Int {
            guard let i = try member(key).intValue else { throw DecodingError(path: path + "." + key) }
            return i
        }
        func object(_ key: String) throws -> JSONObject {
            guard let o = try member(key).objectValue else { throw DecodingError(path: path + "." + key) }
            return o
        }
        func child(_ key: String) throws -> Reader { Reader(try member(key), path + "." + key) }
        func children(_ key: String) throws -> [Reader] {
            guard let items = try member(key).arrayValue else { throw DecodingError(path: path + "." + key) }
            return items.enumerated().map { Reader($1, "\(path).\(key)[\($0)]") }
        }
    }
}
