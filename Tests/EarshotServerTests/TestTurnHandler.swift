import EarshotBase
import EarshotConversation
import EarshotProtocol
import EarshotServer
import EarshotTurns

/// A real `CommandHandler` for the socket tests: turn commands drive a real `TurnMachine`,
/// device commands a fixed list. Commands named in `delays` take that long, to show that a
/// connection's responses keep their order.
actor TestTurnHandler: CommandHandler {
    static let sources = ["alsa_input.usb-mic", "alsa_input.builtin"]
    static let sinks = ["alsa_output.speakers"]

    private var machine = TurnMachine(clock: ContinuousClock())
    private var source: String?
    private var sink: String?
    private let delays: [String: Duration]

    init(delays: [String: Duration] = [:]) {
        self.delays = delays
    }

    func handle(_ command: Command) async -> CommandResult {
        if let delay = delays[command.name] { try? await Task.sleep(for: delay) }
        switch command {
        case .status:
            return .success(["state": .object(VoiceState(machine.snapshot).fields), "uptime": .number(1.5, decimals: 1)])
        case .start: return result(of: machine.start())
        case .dismiss: return result(of: machine.dismiss())
        case .stop: return result(of: machine.stop())
        case .cancel: return result(of: machine.cancel())
        case .mute: return result(of: machine.mute())
        case .unmute: return result(of: machine.unmute())
        case .hold: return result(of: machine.hold())
        case .release: return result(of: machine.release())
        case .talk: return result(of: machine.talk())
        case .toggle: return result(of: machine.toggle())
        case .devices:
            return .success([
                "sources": .array(Self.sources.map { .string($0) }),
                "sinks": .array(Self.sinks.map { .string($0) }),
                "source": .optional(source), "sink": .optional(sink),
            ])
        case .setSource(let name):
            if let name, !Self.sources.contains(name) { return unknownDevice(name) }
            source = name
            return .success(["source": .optional(name)])
        case .setSink(let name):
            if let name, !Self.sinks.contains(name) { return unknownDevice(name) }
            sink = name
            return .success(["sink": .optional(name)])
        case .speak(let text, _, let turn):
            return result(of: machine.replyRequested(turn: turn, text: text))
        case .voices, .setVoice, .preview:
            return .failure(ProtocolError(code: "speech_off", message: "This test handler has no voices."))
        case .forget:
            return .failure(ProtocolError(code: "forget_failed", message: "This test handler keeps no recordings."))
        case .subscribe, .unsubscribe, .claim, .unclaim:
            return .failure(ProtocolError(code: ProtocolError.Code.internalError, message: "the server answers this"))
        }
    }

    private func result(of action: TurnAction) -> CommandResult {
        switch action {
        case .rejected(let rejection): .failure(ProtocolError(rejection))
        case .none, .ignored, .transition: .success(["state": .object(VoiceState(machine.snapshot).fields)])
        }
    }

    private func unknownDevice(_ name: String) -> CommandResult {
        .failure(ProtocolError(code: ProtocolError.Code.unknownDevice, message: "There is no device \"\(name)\"."))
    }
}
