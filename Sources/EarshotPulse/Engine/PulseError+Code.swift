import CPulse

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
