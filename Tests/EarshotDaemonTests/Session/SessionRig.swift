@testable import EarshotDaemon
import EarshotBase
import EarshotConversation
import EarshotEngines
import EarshotProtocol
import EarshotPulse
import EarshotRecordings
import EarshotServer
import EarshotSpeech
import EarshotTestSupport
import Foundation
import Logging

/// `VoiceSession` and `DaemonCommandHandler` built as `earshotd` builds them, from real parts,
/// with no sound server and no audio hardware: the sound-server engine is made but never
/// started, so what the turn machine asks of it (the microphone, pausing and stopping playback)
/// is performed on the engine's state, and a device command finds the server away. The speech
/// player (the embedded synthesizer) and the transcription queue (the embedded transcriber) keep
/// their reports here instead of handing them back to the session: a test gives the session the
/// playback reports and transcripts it means to, in its own order.
final class SessionRig: Sendable {
    static let breeze = Voice(id: "breeze", displayName: "Breeze", summary: "Calm and clear.", language: "en-US")
    static let cove = Voice(id: "cove", displayName: "Cove", summary: "Low and warm.", language: "en-GB")

    let directory: String
    let engine: PulseAudioEngine
    let relay: EventRelay
    let tap: SpeakerTap
    let recordings: RecordingArchive
    let session: VoiceSession
    let handler: DaemonCommandHandler
    private let playerReports: Locked<[PlaybackReport]>

    /// `speech`: with a speech player, else speech is off (as `--tts none`); `transcription`:
    /// with a transcription queue, else off (as `--stt none`); `responder`: the command that
    /// answers transcripts (`--responder`), else front ends do.
    init(speech: Bool = false, transcription: Bool = false, responder: String? = nil) throws {
        let directory = "/tmp/earshot-session-" + String(UInt64.random(in: 0...UInt64.max), radix: 36)
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
        var quiet = Logger(label: "earshot.session.test")
        quiet.logLevel = .critical
        // Never started: nothing connects to this address.
        let engine = try PulseAudioEngine(
            configuration: .init(server: "unix:\(directory)/no-sound-server", applicationName: "Earshot tests"), logger: quiet
        )
        // Closed until the turn machine opens it, as earshotd starts.
        engine.setMicrophone(.closed)
        let tap = SpeakerTap(), relay = EventRelay(), playerReports = Locked<[PlaybackReport]>([])
        let player = speech ? SpeechBackends.synthesizer(.embedded, logger: quiet).map { synthesizer in
            SpeechPlayer(engine: engine, synthesizer: synthesizer, tap: tap, logger: quiet) { report in
                playerReports.withLock { $0.append(report) }
            }
        } : nil
        let transcription = transcription ? SpeechBackends.transcriber(.embedded, logger: quiet).map {
            TranscriptionQueue(transcriber: $0) { _ in }
        } : nil
        let recordings = RecordingArchive(
            store: RecordingStore(directory: directory + "/recordings"), keptTurns: 0, run: "test", logger: quiet
        )
        let session = VoiceSession(
            configuration: DaemonConfiguration(socketPath: directory + "/earshot.sock"), engine: engine, relay: relay,
            transcription: transcription, player: player, tap: tap, voices: VoiceCatalog(voices: [Self.breeze, Self.cove]),
            voice: Self.breeze, responder: responder.map { ResponderRunner(source: Responder(command: $0, timeout: .seconds(30))) },
            logger: quiet
        )
        session.begin(wake: nil)
        self.directory = directory
        self.engine = engine
        self.tap = tap
        self.relay = relay
        self.playerReports = playerReports
        self.recordings = recordings
        self.session = session
        handler = DaemonCommandHandler(session: session, engine: engine, relay: relay, recordings: recordings)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// What the speech player reported so far, in order.
    var reports: [PlaybackReport] { playerReports.withLock { $0 } }

    /// The handler's response to `command`, as the line a front end reads, parsed.
    func respond(to command: Command) async throws -> JSONValue {
        let result = await handler.handle(command)
        return try JSONParser.parse(Response(id: 1, result: result).jsonLine())
    }

    /// Runs the socket server over the handler, with the session's events published through it,
    /// until `body` returns; `body` gets the socket's path.
    func withSocket<Result: Sendable>(_ body: (String) async throws -> Result) async throws -> Result {
        let path = directory + "/socket/earshot.sock"
        let server = SocketServer(configuration: .init(path: path), handler: handler)
        relay.attach(server)
        let (listening, listener) = AsyncStream.makeStream(of: Void.self)
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                defer { listener.finish() }
                try await server.run(onListening: { listener.yield() })
            }
            var iterator = listening.makeAsyncIterator()
            guard await iterator.next() != nil else {
                try await group.next()
                throw LineSocket.Failure(description: "the socket server did not start")
            }
            let result = try await body(path)
            group.cancelAll()
            try await group.waitForAll()
            return result
        }
    }
}
