/// Why a bearer JWT was not accepted: one case per reason, each with a stable `code` (for the
/// problem+json answers) and a `detail` for people. Neither ever repeats the token, a claim's
/// value or key material: a detail says what was wrong, not what was sent.
enum JWTRefusal: Error, Equatable, Sendable {
    /// Longer than `CompactJWS.maximumLength`: refused before any decoding.
    case tooLarge
    /// Not three base64url parts, or a header or payload that is not a JSON object, or a header
    /// member of the wrong type. The reason says which part.
    case malformed(String)
    /// The header's `typ` is present and not `JWT`.
    case typeNotAllowed
    /// The header has `crit`: extensions the verifier would have to understand, and it knows none.
    case criticalHeader
    /// The header's `alg` is `none`, unknown, or one the configuration has no key for.
    case algorithmNotAllowed
    /// No configured key has the header's `kid`, or there is no `kid` and no key to fall back on.
    case keyUnknown
    /// No `kid`, and several keys could have signed the token.
    case keyAmbiguous
    /// The key the `kid` names is for another algorithm than the header's `alg`.
    case keyAlgorithmMismatch
    /// The signature is not the key's over `header.payload`.
    case signatureInvalid
    /// A registered claim has the wrong type (`exp` not a number, `iss` not a string, …): its name.
    case claimInvalid(String)
    /// No `exp`: every accepted token expires.
    case expiryMissing
    /// `exp` has passed (beyond the clock skew allowance).
    case expired
    /// `nbf` is still ahead (beyond the clock skew allowance).
    case notYetValid
    /// `iat` is in the future (beyond the clock skew allowance).
    case issuedInFuture
    /// `iss` is missing or not the configured issuer.
    case issuerMismatch
    /// `aud` is missing or neither is nor contains the configured audience.
    case audienceMismatch
    /// `sub` is missing or empty.
    case subjectMissing

    /// The stable machine-readable reason.
    var code: String {
        switch self {
        case .tooLarge: "token_too_large"
        case .malformed: "token_malformed"
        case .typeNotAllowed: "token_type_not_allowed"
        case .criticalHeader: "token_critical_header_unsupported"
        case .algorithmNotAllowed: "token_algorithm_not_allowed"
        case .keyUnknown: "token_key_unknown"
        case .keyAmbiguous: "token_key_ambiguous"
        case .keyAlgorithmMismatch: "token_key_algorithm_mismatch"
        case .signatureInvalid: "token_signature_invalid"
        case .claimInvalid: "token_claim_invalid"
        case .expiryMissing: "token_expiry_missing"
        case .expired: "token_expired"
        case .notYetValid: "token_not_yet_valid"
        case .issuedInFuture: "token_issued_in_future"
        case .issuerMismatch: "token_issuer_mismatch"
        case .audienceMismatch: "token_audience_mismatch"
        case .subjectMissing: "token_subject_missing"
        }
    }

    /// What was wrong, for a person reading the answer or the log.
    var detail: String {
        switch self {
        case .tooLarge: "The token is longer than \(CompactJWS.maximumLength) bytes."
        case .malformed(let reason): "The token is not a compact JWS: \(reason)."
        case .typeNotAllowed: "The token's header says it is not a JWT (typ)."
        case .criticalHeader: "The token's header lists critical extensions (crit), which this server does not support."
        case .algorithmNotAllowed: "The token's signature algorithm (alg) is not one this server accepts."
        case .keyUnknown: "The token names a signing key (kid) this server does not know."
        case .keyAmbiguous: "The token names no signing key (kid), and this server has several it could be."
        case .keyAlgorithmMismatch: "The signing key the token names (kid) is for another algorithm than the token's (alg)."
        case .signatureInvalid: "The token's signature does not verify."
        case .claimInvalid(let claim): "The token's \(claim) claim has the wrong type."
        case .expiryMissing: "The token has no expiry (exp)."
        case .expired: "The token has expired (exp)."
        case .notYetValid: "The token is not valid yet (nbf)."
        case .issuedInFuture: "The token was issued in the future (iat)."
        case .issuerMismatch: "The token was not issued by the identity provider this server trusts (iss)."
        case .audienceMismatch: "The token is not meant for this server (aud)."
        case .subjectMissing: "The token names no subject (sub)."
        }
    }
}
