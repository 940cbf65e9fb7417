import EarshotAudio
import EarshotConversation
import EarshotEngines
import EarshotSpeech
import EarshotTestSupport
import Foundation

/// The conversation fixtures (`Tests/Fixtures/conversation`) and a scripted replay of them in
/// this process, with real flite voices.
enum ConversationFixture {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures")

    /// A fixture's path, or `name` itself when it is absolute.
    static func path(_ name: String) -> String {
        name.hasPrefix("/") ? name : fixtures.appendingPathComponent(name).path
    }

    /// The bundled voices only (a user's own voice files must not change what the tests hear).
    static let voices = VoiceCatalog.load(
        bundledDirectory: fixtures.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("voices").path,
        userDirectory: nil
    )

    static func script(_ name: String) throws -> ConversationScript {
        try ConversationScript.read(path: path(name), voices: voices.voices, defaultVoice: voices.defaultVoice)
    }

    /// Replays `recording` with `script` and no transcriber; the JSON lines it printed.
    static func replay(_ recording: String, script name: String, levels: Bool = false) async throws -> String {
        try await EngineGate.embeddedSpeech.sharing {
            let clip = try WAVFile.read(path(recording))
            let configuration = VoicePipeline<SpectralVAD>.Configuration(
                levelMeter: LevelMeter.Configuration(readingsPerSecond: 10), emitsLevels: levels, transcribes: true
            )
            var replay = ScriptedReplay(
                replay: Replay(detector: SpectralVAD(), configuration: configuration), script: try script(name),
                synthesizer: EmbeddedSynthesizer(), transcriber: nil
            )
            var bytes: [UInt8] = []
            try await replay.run(clip) { bytes += $0 }
            return String(decoding: bytes, as: UTF8.self)
        }
    }
}
