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

extension PulseError {
    /// A libpulse error code (`pa_error_code_t`).
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        public var rawValue: Int32

        public init(rawValue: Int32) { self.rawValue = rawValue }

        init(_ code: pa_error_code) { self.rawValue = Int32(code.rawValue) }

        public static let ok = Code(PA_OK)
        public static let accessDenied = Code(PA_ERR_ACCESS)
        public static let unknownCommand = Code(PA_ERR_COMMAND)
        public static let invalidArgument = Code(PA_ERR_INVALID)
        public static let exists = Code(PA_ERR_EXIST)
        public static let noEntity = Code(PA_ERR_NOENTITY)
        public static let moduleInitFailed = Code(PA_ERR_MODINITFAILED)
        public static let connectionRefused = Code(PA_ERR_CONNECTIONREFUSED)
        public static let protocolError = Code(PA_ERR_PROTOCOL)
        public static let timeout = Code(PA_ERR_TIMEOUT)
        public static let internalError = Code(PA_ERR_INTERNAL)
        public static let connectionTerminated = Code(PA_ERR_CONNECTIONTERMINATED)
        public static let killed = Code(PA_ERR_KILLED)
        public static let invalidServer = Code(PA_ERR_INVALIDSERVER)
        public static let badState = Code(PA_ERR_BADSTATE)
        public static let notSupported = Code(PA_ERR_NOTSUPPORTED)
        public static let unknown = Code(PA_ERR_UNKNOWN)

        public var description: String { "\(rawValue)" }
    }
}
