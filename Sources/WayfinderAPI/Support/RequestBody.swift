import WayfinderCore
import WayfinderHTTP

/// Reads a JSON request body by the contract's rules: `415` unless the media type is exactly
/// `application/json` (a UTF-8 `charset` is fine), `400 bad_json` unless it parses, `{}` when
/// empty; then typed member access that names the bad field.
struct RequestBody: Sendable {
    /// The parsed body (`{}` for an empty body).
    let value: JSONValue
    /// The canonical form of the body, for idempotency fingerprints (computed when asked: only
    /// requests with an `Idempotency-Key` need it).
    var canonical: [UInt8] { value.canonicalBytes }

    static func read(_ request: HTTPRequest) throws(APIError) -> RequestBody {
        guard !request.body.isEmpty else { return RequestBody(value: .object([:])) }
        try checkMediaType(request.headers["Content-Type"])
        do {
            let value = try JSONParser.parse(request.body)
            return RequestBody(value: value)
        } catch {
            throw .badJSON(error.description)
        }
    }

    private static func checkMediaType(_ header: String?) throws(APIError) {
        guard let header else { throw .unsupportedMediaType("Send the body as application/json.") }
        if header.utf8.elementsEqual("application/json".utf8) { return }  // what nearly every client sends
        let parts = header.split(separator: ";")
        guard let type = parts.first?.trimmingSpaces, type.lowercased() == "application/json" else {
            throw .unsupportedMediaType("Send the body as application/json, not \(header).")
        }
        for parameter in parts.dropFirst() {
            let pair = parameter.split(separator: "=", maxSplits: 1)
            let name = pair.first?.trimmingSpaces.lowercased() ?? ""
            var value = pair.count == 2 ? pair[1].trimmingSpaces.lowercased() : ""
            if value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 { value = String(value.dropFirst().dropLast()) }
            if name == "charset", value != "utf-8", value != "utf8" {
                throw .unsupportedMediaType("Bodies are UTF-8 JSON; charset \(value) is not supported.")
            }
        }
    }

    /// The body as an object, or `422 invalid_params` naming `body`.
    func object() throws(APIError) -> JSONObject {
        guard let object = value.objectValue else { throw .invalid("body", "must be a JSON object, not \(value.typeNameWithArticle)") }
        return object
    }

    /// A required non-empty string member.
    func requiredString(_ name: String) throws(APIError) -> String {
        guard let string = try optionalString(name) else { throw .invalid(name, "is required") }
        return string
    }

    /// An optional non-empty string member (`null` counts as absent).
    func optionalString(_ name: String) throws(APIError) -> String? {
        guard let member = try object()[name], !member.isNull else { return nil }
        guard let string = member.stringValue, !string.isEmpty else { throw .invalid(name, "must be a non-empty string") }
        return string
    }

    /// An optional object member (`null` counts as absent).
    func optionalObject(_ name: String) throws(APIError) -> JSONObject? {
        guard let member = try object()[name], !member.isNull else { return nil }
        guard let object = member.objectValue else { throw .invalid(name, "must be an object, not \(member.typeNameWithArticle)") }
        return object
    }
}
