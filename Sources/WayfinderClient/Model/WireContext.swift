/// The context a session runs in, as the application defines it.
///
/// The members are the application's to choose (the sample app has `onboarded`, `authenticated`,
/// `platform`, `variant` and `user`), so they are kept as JSON with typed accessors for the
/// common ones; an app with other members still decodes.
public struct WireContext: Codable, Sendable, Hashable {
    /// Every member as sent.
    public var values: [String: WireValue]

    /// A context with these members.
    public init(_ values: [String: WireValue] = [:]) { self.values = values }

    /// Decodes any JSON object.
    public init(from decoder: any Decoder) throws {
        values = try decoder.singleValueContainer().decode([String: WireValue].self)
    }

    /// Encodes the members as an object.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(values)
    }

    /// A member, if present.
    public subscript(key: String) -> WireValue? { values[key] }
    /// `onboarded`, if the app has it.
    public var onboarded: Bool? { values["onboarded"]?.boolValue }
    /// `authenticated`, if the app has it.
    public var authenticated: Bool? { values["authenticated"]?.boolValue }
    /// `platform`, if the app has it.
    public var platform: String? { values["platform"]?.stringValue }
    /// `variant`, if the app has it.
    public var variant: String? { values["variant"]?.stringValue }
    /// `user` (the signed-in user), if the app has it and someone is signed in.
    public var user: String? { values["user"]?.stringValue }
}
