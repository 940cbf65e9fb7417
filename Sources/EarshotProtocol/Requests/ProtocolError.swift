public import EarshotBase

/// The `error` object of a failed response: a stable `code` for programs and a `message` for
/// people.
public struct ProtocolError: Error, Hashable, Sendable, CustomStringConvertible {
    public var code: String
    public var message: String

    public init(code: String, message: String) {
        self.code = code
        self.message = message
    }

    public var description: String {
        "\(code): \(message)"
    }

    /// The error codes the daemon sends.
    public enum Code {
        public static let lineTooLong = "line_too_long"
        public static let invalidUTF8 = "invalid_utf8"
        public static let invalidJSON = "invalid_json"
        public static let notAnObject = "not_an_object"
        public static let missingCommand = "missing_cmd"
        public static let unknownCommand = "unknown_cmd"
        public static let invalidArgument = "invalid_argument"
        public static let permissionDenied = "permission_denied"
        public static let nothingPlaying = "nothing_playing"
        public static let nothingToCancel = "nothing_to_cancel"
        public static let notMuted = "not_muted"
        public static let alreadyMuted = "already_muted"
        public static let voiceModeOff = "voice_mode_off"
        public static let voiceModeAlreadyOn = "voice_mode_already_on"
        public static let unknownDevice = "unknown_device"
        public static let soundServerUnavailable = "sound_server_unavailable"
        public static let confirmationRequired = "confirmation_required"
        public static let internalError = "internal_error"
    }
}

extension ProtocolError {
    public static func lineTooLong(limit: Int) -> ProtocolError {
        ProtocolError(
            code: Code.lineTooLong,
            message: "The line is longer than \(limit) bytes; it was discarded up to its newline."
        )
    }

    public static func invalidUTF8(offset: Int) -> ProtocolError {
        ProtocolError(code: Code.invalidUTF8, message: "The line is not valid UTF-8 (from byte \(offset + 1) on).")
    }

    public static func invalidJSON(_ error: JSONParseError) -> ProtocolError {
        ProtocolError(code: Code.invalidJSON, message: "The line is not JSON: \(error.reason) at column \(error.column).")
    }

    public static func notAnObject(_ value: JSONValue) -> ProtocolError {
        ProtocolError(
            code: Code.notAnObject,
            message: "The line is \(value.typeName), not a JSON object; send a request like {\"id\":1,\"cmd\":\"status\"}."
        )
    }

    public static func missingCommand(found value: JSONValue?) -> ProtocolError {
        let problem = value.map { "its \"cmd\" is \($0.typeName), not a string" } ?? "it has no \"cmd\""
        return ProtocolError(
            code: Code.missingCommand,
            message: "The request cannot run: \(problem). Name a command, e.g. {\"cmd\":\"status\"}."
        )
    }

    public static func unknownCommand(_ name: String) -> ProtocolError {
        ProtocolError(
            code: Code.unknownCommand,
            message: "There is no command \"\(name)\". The commands are: \(Command.names.joined(separator: ", "))."
        )
    }

    /// `argument` has the wrong type or value; `requirement` says what it must be.
    public static func invalidArgument(_ argument: String, must requirement: String, found value: JSONValue?) -> ProtocolError {
        let found = value.map { ", not \($0.jsonText.count > 40 ? $0.typeName : $0.jsonText)" } ?? ""
        return ProtocolError(
            code: Code.invalidArgument,
            message: "The argument \"\(argument)\" must be \(requirement)\(found)."
        )
    }

    public static var permissionDenied: ProtocolError {
        ProtocolError(
            code: Code.permissionDenied,
            message: "This daemon belongs to another user; connect to the socket of your own earshotd."
        )
    }
}
