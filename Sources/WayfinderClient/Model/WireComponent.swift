/// One thing a screen shows: the whole vocabulary a thin client renders, in order.
///
/// A component whose `type` this client does not know, or a known type with members it cannot
/// read, decodes as ``unknown(_:)`` with its JSON, so a newer server never breaks an older
/// client: render it as a placeholder or skip it.
public enum WireComponent: Codable, Sendable, Hashable {
    /// A section heading.
    case heading(String)
    /// A paragraph.
    case text(String)
    /// A message about the user's input (`error`, `info`, `success`).
    case notice(Notice)
    /// A text input whose value a submit button sends as a param.
    case field(Field)
    /// A switch whose value a submit button sends as a param.
    case toggle(Toggle)
    /// A button that triggers a route.
    case button(Button)
    /// Rows that each trigger a route.
    case list([ListItem])
    /// A picture (`url` is relative to the server).
    case image(Image)
    /// A type this client does not know.
    case unknown(UnknownComponent)

    private enum TypeKey: String, CodingKey { case type, text, items }

    /// Decodes by `type`; anything unreadable becomes ``unknown(_:)``.
    public init(from decoder: any Decoder) throws {
        let json = try WireValue(from: decoder)
        let type = json["type"]?.stringValue ?? ""
        do {
            let container = try decoder.container(keyedBy: TypeKey.self)
            switch type {
            case "heading": self = .heading(try container.decode(String.self, forKey: .text))
            case "text": self = .text(try container.decode(String.self, forKey: .text))
            case "notice": self = .notice(try Notice(from: decoder))
            case "field": self = .field(try Field(from: decoder))
            case "toggle": self = .toggle(try Toggle(from: decoder))
            case "button": self = .button(try Button(from: decoder))
            case "list": self = .list(try container.decode([ListItem].self, forKey: .items))
            case "image": self = .image(try Image(from: decoder))
            default: self = .unknown(UnknownComponent(type: type, json: json))
            }
        } catch {
            self = .unknown(UnknownComponent(type: type, json: json))
        }
    }

    /// Encodes as the server sends it (`type` plus the members).
    public func encode(to encoder: any Encoder) throws {
        if case .unknown(let component) = self { return try component.json.encode(to: encoder) }
        var container = encoder.container(keyedBy: TypeKey.self)
        try container.encode(type, forKey: .type)
        switch self {
        case .heading(let text), .text(let text): try container.encode(text, forKey: .text)
        case .notice(let notice): try notice.encode(to: encoder)
        case .field(let field): try field.encode(to: encoder)
        case .toggle(let toggle): try toggle.encode(to: encoder)
        case .button(let button): try button.encode(to: encoder)
        case .list(let items): try container.encode(items, forKey: .items)
        case .image(let image): try image.encode(to: encoder)
        case .unknown: break
        }
    }

    /// The wire `type` (`heading`, `button`, ... or the unknown type's name).
    public var type: String {
        switch self {
        case .heading: "heading"
        case .text: "text"
        case .notice: "notice"
        case .field: "field"
        case .toggle: "toggle"
        case .button: "button"
        case .list: "list"
        case .image: "image"
        case .unknown(let component): component.type
        }
    }
}

/// A component this client cannot render: its `type` and its whole JSON.
public struct UnknownComponent: Sendable, Hashable {
    /// The wire `type` (empty if it had none).
    public var type: String
    /// Everything the server sent for it.
    public var json: WireValue

    /// An unknown component of `type`.
    public init(type: String, json: WireValue) {
        self.type = type
        self.json = json
    }
}
