import KilnModel

/// How an API wraps its payload: where the status code, the message and the data are, and which
/// codes mean success.
///
/// Most public APIs send the value itself and say "no" with an HTTP status: that is ``none``, the
/// client's default. Some APIs wrap every answer, success or not, in an object with a status code
/// of their own; name the envelope for those, and the client checks the code and unwraps the data.
/// Codes are read as a `@DataModel`'s `String` property reads them (`JSONCoercible`: `200` →
/// `"200"`, `200.0` → `"200"`) and compared tolerantly: two codes that read as the same integer by
/// the model layer's integer rule are the same code, so `"0000"`, `"0"`, `" 0 "` and `0` are one
/// code and `200` matches `"200"`; other codes compare as text (`"OK"`).
///
/// ```swift
/// let plain = APIClient(baseURL: url)                                    // the body is the value
/// let wrapped = APIClient(baseURL: url, envelope: .codeMessageData)     // {"code", "msg", "data"}
/// let other = APIClient(baseURL: url, envelope: Envelope(
///     codePath: "status.code", messagePath: "status.message", dataPath: "result",
///     successCodes: ["0", "200"]))
/// ```
public struct Envelope: Sendable, Hashable {
    /// Key path (`status.code`, `data.list[0]`) of the status code, or `nil` when the API has no envelope.
    public var codePath: String?
    /// Key path (`status.code`, `data.list[0]`) of the human-readable message.
    public var messagePath: String?
    /// Key path (`status.code`, `data.list[0]`) of the payload, or `nil` when the whole body is the payload.
    public var dataPath: String?
    /// The codes that mean success.
    public var successCodes: Set<String>

    /// Creates an envelope description.
    public init(codePath: String? = "code", messagePath: String? = "msg", dataPath: String? = "data", successCodes: Set<String> = ["0000"]) {
        self.codePath = codePath
        self.messagePath = messagePath
        self.dataPath = dataPath
        self.successCodes = successCodes
    }

    /// `{"code": "0000", "msg": …, "data": …}`, success code `"0000"`: the code in `code`, the
    /// message in `msg`, the value in `data`.
    public static let codeMessageData = Envelope()

    /// No envelope, the client's default: any 2xx body is the value, and an error status is the
    /// server's "no" (``APIError/http(status:body:)``, with the message of a JSON error body).
    public static let none = Envelope(codePath: nil, messagePath: nil, dataPath: nil, successCodes: [])

    /// The outcome of reading an envelope.
    enum Verdict: Equatable {
        case success
        case failure(code: String, message: String)
        case missingCode(path: String)
    }

    /// Checks the code of a document read by Kiln's reader; only the code and message are built.
    func verdict(for document: JSONDocument) -> Verdict {
        guard let codePath else { return .success }
        guard let codeValue = Self.lookup(codePath, in: document), let code = Self.text(codeValue) else {
            return .missingCode(path: codePath)
        }
        if isSuccess(code) { return .success }
        let message = messagePath.flatMap { Self.lookup($0, in: document) }.flatMap(Self.text) ?? ""
        return .failure(code: code, message: message)
    }

    /// Whether `code` is one of ``successCodes``: the same text, or the same integer as the
    /// model layer reads one from text (`"0000"`, `" 0 "` and `"0"` are all `0`).
    public func isSuccess(_ code: String) -> Bool {
        if successCodes.contains(code) { return true }
        guard let number = Self.integer(code) else { return false }
        return successCodes.contains { Self.integer($0) == number }
    }

    /// A code as an integer by the rule an `Int64` property reads text with; `nil` when the code
    /// is not a number.
    private static func integer(_ code: String) -> Int64? {
        Int64.coerce(from: .string(code), truncating: false)
    }

    /// The value at a key path (`data.list[0].id`, as KilnModel writes them) in the document, by
    /// the walk every path look-up takes (`JSONDocument.value(at:)`); `nil` when it leads nowhere.
    /// A malformed path is read as one literal key.
    static func lookup(_ path: String, in document: JSONDocument) -> JSONValue? {
        document.value(at: jsonPath(path))
    }

    /// A key path as KilnModel writes them; a malformed one is read as one literal key.
    static func jsonPath(_ path: String) -> KilnModel.JSONPath {
        (try? KilnModel.JSONPath(parsing: path)) ?? KilnModel.JSONPath([.key(path)])
    }

    /// A code or a message as text, as a `String` property of a `@DataModel` reads it
    /// (`JSONCoercible`): numbers and booleans as their JSON text; `nil` for `null`, an array
    /// or an object.
    static func text(_ value: JSONValue) -> String? {
        String.coerce(from: value, truncating: false)
    }
}
