import CPulse

/// A failure of libpulse (or of the engine, told in libpulse's terms): its code, libpulse's words
/// for it, and what was being attempted.
public struct PulseError: Error, Sendable, Hashable, CustomStringConvertible {
    public var code: Code
    /// libpulse's text for `code` (`pa_strerror`), e.g. "Connection terminated".
    public var message: String
    /// What was being attempted, e.g. "connect to the sound server".
    public var operation: String

    public init(_ code: Code, while operation: String) {
        self.code = code
        self.message = pa_strerror(code.rawValue).map { String(cString: $0) } ?? "error \(code.rawValue)"
        self.operation = operation
    }

    /// The error libpulse recorded last on `context` (`pa_context_errno`).
    init(lastErrorOf context: OpaquePointer, while operation: String) {
        self.init(Code(rawValue: pa_context_errno(context)), while: operation)
    }

    public var description: String { "\(operation): \(message)" }

    /// The sound server is away (not a bad request): worth retrying once it is back.
    public var isServerUnavailable: Bool {
        [.connectionRefused, .connectionTerminated, .killed, .invalidServer, .timeout, .badState]
            .contains(code)
    }

    /// A device or other object that was named does not exist.
    public var isUnknownEntity: Bool { code == .noEntity }
}
