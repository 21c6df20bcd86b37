/// A session's context and model as the app's Swift types, kept with the JSON they were decoded
/// from: flows read them on nearly every action, and decoding them through `Codable` costs more
/// than the rest of a trigger's navigation. A value is used only while its JSON is equal to the
/// session's (usually the very same dictionary), so it can never disagree with the state.
struct DecodedValues: Sendable {
    struct Slot: Sendable {
        var json: JSONObject
        var value: any Sendable
    }

    enum Kind { case context, model }

    /// What a stored context or model that does not decode as the app's type is kept as: the
    /// decoding error. Flows then read `init()` for it, and it is never replaced (see
    /// ``DecodedCache/undecodable(_:_:)``).
    struct Undecodable: Sendable {
        let reason: String
    }

    var context: Slot?
    var model: Slot?

    subscript(kind: Kind) -> Slot? {
        get { kind == .context ? context : model }
        set { if kind == .context { context = newValue } else { model = newValue } }
    }
}

/// The decoded values of one action or one rendering, shared by every flow context it creates.
///
/// - Important: `@unchecked Sendable` because ``FlowContext`` is `Sendable`: an instance lives
///   inside one `reduce` or `renderJSON` call on one thread and is never shared.
final class DecodedCache: @unchecked Sendable {
    private(set) var values: DecodedValues

    init(_ values: DecodedValues = DecodedValues()) { self.values = values }

    /// The `kind` in `json` as a `T`: the kept one if `json` is unchanged, else decoded and kept;
    /// `fallback` if it does not decode (noted, unless `json` is empty: nothing stored yet).
    func value<T: Decodable & Sendable>(_ kind: DecodedValues.Kind, _ json: JSONObject, _ fallback: () -> T) -> T {
        if let slot = values[kind], slot.json == json {
            if let value = slot.value as? T { return value }
            if slot.value is DecodedValues.Undecodable { return fallback() }
        }
        do {
            let value = try JSONValueDecoder().decode(T.self, from: .object(json))
            values[kind] = DecodedValues.Slot(json: json, value: value)
            return value
        } catch {
            if !json.isEmpty { values[kind] = DecodedValues.Slot(json: json, value: DecodedValues.Undecodable(reason: "\(error)")) }
            return fallback()
        }
    }

    /// Why the `kind` in `json` does not decode, if reading it found so: a flow that read
    /// `init()` in its place must not write it back over the stored one.
    func undecodable(_ kind: DecodedValues.Kind, _ json: JSONObject) -> String? {
        guard let slot = values[kind], let undecodable = slot.value as? DecodedValues.Undecodable, slot.json == json else { return nil }
        return undecodable.reason
    }

    /// Keeps `value` as the decoded form of `json` (after a flow changed it).
    func keep(_ kind: DecodedValues.Kind, _ json: JSONObject, _ value: any Sendable) {
        values[kind] = DecodedValues.Slot(json: json, value: value)
    }
}
