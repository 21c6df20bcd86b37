extension Component {
    /// The kinds of components, as the `type` of their JSON and as a client names them in its
    /// `Wayfinder-Components` header.
    public enum Kind: String, CaseIterable, Sendable, Hashable {
        /// ``Component/heading(_:)``, ``Component/text(_:)``, ``Component/notice(_:)`` and so on:
        /// one kind per case of ``Component``.
        case heading, text, notice, field, toggle, button, list, image

        /// The kind's current version. It goes up when the kind's JSON changes in a way a client
        /// of the previous version cannot read (new members alone do not count: clients ignore
        /// members they do not know); a client naming an older version gets the fallback.
        public var version: Int { 1 }

        /// The kind's place in ``ClientComponents``' packed versions.
        var index: Int {
            switch self {
            case .heading: 0
            case .text: 1
            case .notice: 2
            case .field: 3
            case .toggle: 4
            case .button: 5
            case .list: 6
            case .image: 7
            }
        }
    }

    /// This component's kind.
    public var kind: Kind {
        switch self {
        case .heading: .heading
        case .text: .text
        case .notice: .notice
        case .field: .field
        case .toggle: .toggle
        case .button: .button
        case .list: .list
        case .image: .image
        }
    }
}

/// What a client can render: the component kinds it knows and, for each, the highest version.
///
/// A client says it in the `Wayfinder-Components` request header (the events endpoint, which a
/// browser's `EventSource` opens without headers, also reads a `components` query parameter):
/// a comma-separated list of kinds, each optionally with its version, `heading, text, list;v=2`
/// (a kind without `v` is version 1). Kinds the server does not know and malformed members are
/// ignored. A client that sends nothing renders everything: the server's vocabulary is then
/// sent as is, at no extra cost.
public struct ClientComponents: Sendable, Hashable, CustomStringConvertible {
    /// One byte per kind (``Component/Kind/index``): the highest version rendered, 0 for none.
    private var versions: UInt64

    /// The request header a client names its components in.
    public static let headerName = "Wayfinder-Components"

    /// A client that renders every kind at its current version (one that sends no header).
    public static let all = ClientComponents(Dictionary(uniqueKeysWithValues: Component.Kind.allCases.map { ($0, $0.version) }))

    /// `all`'s packed versions, for comparisons without allocating `allCases`.
    private static let current = all.versions

    /// A client that renders `kinds` (kind → highest version; versions from 1 to 255).
    public init(_ kinds: [Component.Kind: Int]) {
        versions = 0
        for (kind, version) in kinds { set(kind, version) }
    }

    /// A client that renders version 1 of `kinds`.
    public init(kinds: [Component.Kind]) {
        self.init(Dictionary(kinds.map { ($0, 1) }, uniquingKeysWith: max))
    }

    /// Reads a `Wayfinder-Components` value (see the type's description).
    public init(header: String) {
        versions = 0
        for member in header.split(separator: ",") {
            var parts = member.split(separator: ";").makeIterator()
            guard let name = parts.next(), let kind = Component.Kind(rawValue: Self.trimmed(name)) else { continue }
            var version = 1
            while let parameter = parts.next() {
                let text = Self.trimmed(parameter)
                guard text.hasPrefix("v=") else { continue }
                guard let number = Int(text.dropFirst(2)), (0...255).contains(number) else { version = -1; break }
                version = number
            }
            if version >= 0 { set(kind, max(version, self.version(of: kind))) }
        }
    }

    /// The highest version of `kind` the client renders; 0 if it renders none.
    public func version(of kind: Component.Kind) -> Int {
        Int((versions >> UInt64(kind.index * 8)) & 0xFF)
    }

    /// Whether the client renders version `version` of `kind`.
    public func renders(_ kind: Component.Kind, version: Int = 1) -> Bool {
        version >= 1 && self.version(of: kind) >= version
    }

    /// Whether the client renders `component` as this server writes it.
    public func renders(_ component: Component) -> Bool {
        let kind = component.kind
        return renders(kind, version: kind.version)
    }

    /// Whether the client renders every kind at its current version: then nothing is replaced.
    public var rendersEverything: Bool {
        let current = Self.current
        for shift in stride(from: UInt64(0), to: 64, by: 8) where (versions >> shift) & 0xFF < (current >> shift) & 0xFF {
            return false
        }
        return true
    }

    /// The header value that declares exactly this: `heading, text, list;v=2`.
    public var description: String {
        Component.Kind.allCases.compactMap { kind in
            let version = version(of: kind)
            return version == 0 ? nil : version == 1 ? kind.rawValue : "\(kind.rawValue);v=\(version)"
        }.joined(separator: ", ")
    }

    private mutating func set(_ kind: Component.Kind, _ version: Int) {
        let shift = UInt64(kind.index * 8)
        versions = (versions & ~(0xFF << shift)) | (UInt64(min(max(version, 0), 255)) << shift)
    }

    private static func trimmed(_ text: Substring) -> String {
        String(text.drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}
