public import EarshotBase

/// The `error` object of a failed response: a stable `code` for programs and a `message` for
/// people.
public struct ProtocolError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The code as sent: one of ``Code`` from this daemon, any string from a newer one.
    public var code: String
    public var message: String

    public init(code: Code, message: String) {
        self.init(code: code.rawValue, message: message)
    }

    /// An error as read from a response, whose code this version may not know.
    public init(code: String, message: String) {
        self.code = code
        self.message = message
    }

    public var description: String {
        "\(code): \(message)"
    }

    /// Every code the daemon sends, in failed responses and in `error` events (PROTOCOL.md lists
    /// each).
    public enum Code: String, CaseIterable, Hashable, Sendable {
        // A line that is not a request.
        case lineTooLong = "line_too_long"
        case invalidUTF8 = "invalid_utf8"
        case invalidJSON = "invalid_json"
        case notAnObject = "not_an_object"
        case missingCommand = "missing_cmd"
        case unknownCommand = "unknown_cmd"
        case invalidArgument = "invalid_argument"
        case permissionDenied = "permission_denied"
        // A command the voice UI refuses in its state.
        case nothingPlaying = "nothing_playing"
        case nothingToCancel = "nothing_to_cancel"
        case notMuted = "not_muted"
        case alreadyMuted = "already_muted"
        case voiceModeOff = "voice_mode_off"
        case voiceModeAlreadyOn = "voice_mode_already_on"
        case notHeld = "not_held"
        case rejected
        // Devices, voices, speech and recordings.
        case unknownDevice = "unknown_device"
        case soundServerUnavailable = "sound_server_unavailable"
        case unknownVoice = "unknown_voice"
        case speechOff = "speech_off"
        case confirmationRequired = "confirmation_required"
        case forgetFailed = "forget_failed"
        case internalError = "internal_error"
        // The conversation is claimed by another connection.
        case busy
        // `error` events: the turn machine gave up on a peer.
        case transcriptTimeout = "transcript_timeout"
        case replyTimeout = "reply_timeout"
        case playbackNotStarted = "playback_not_started"
        case playbackTimeout = "playback_timeout"
        // `error` events: a peer failed.
        case transcriberUnavailable = "transcriber_unavailable"
        case transcriptDropped = "transcript_dropped"
        case speechFailed = "speech_failed"
        case responderFailed = "responder_failed"
        case assistantFailed = "assistant_failed"
        case soundServerLost = "sound_server_lost"
        case configInvalid = "config_invalid"
    }

    /// The code, if it is one this version knows.
    public var knownCode: Code? { Code(rawValue: code) }
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
