@testable import EarshotDaemon
import EarshotPulse
import EarshotSpeech
import EarshotTestSupport
import Foundation
import Logging
import Synchronization
import Testing

/// The speech player on a private PulseAudio with a synthesizer whose pieces are known: what the
/// speaker plays is the reply's audio from its first sound on, piece after piece, with no gap.
@Suite(.serialized, .enabled(if: TestPeers.pulseAudio, "needs pulseaudio (make deps installs it)"), .tags(.live))
struct LiveSpeechPlayerTests {
    /// Gives each sentence the pieces scripted for it, at 16 kHz, as a streaming engine would.
    struct ScriptedSynthesizer: Synthesizer {
        let pieces: [String: [[Int16]]]
        var name: String { "scripted" }

        func synthesize(_ text: String, voice: Voice) -> AsyncThrowingStream<SpeechChunk, any Error> {
            let pieces = self.pieces[text] ?? []
            return AsyncThrowingStream { continuation in
                for piece in pieces { continuation.yield(SpeechChunk(sampleRate: 16_000, samples: piece)) }
                continuation.finish()
            }
        }
    }

    /// A faint floor, as flite's pauses have (−50 dBFS, alternating in sign).
    static func floor(_ count: Int) -> [Int16] { (0..<count).map { $0 % 2 == 0 ? 100 : -100 } }

    static func tone(_ count: Int, period: Int) -> [Int16] {
        (0..<count).map { Int16(8_000 * sin(2 * Double.pi * Double($0) / Double(period))) }
    }

    @Test(.disabled("the recording differs from the pieces back to back (worst sample 0.08–0.25 off, sound after the expected end): not yet explained"))
    func aReplyInPiecesPlaysFromItsFirstSoundInOrderWithoutGaps() async throws {
        let first = Self.floor(3_000), sound = Self.tone(1_040, period: 32), more = Self.tone(1_040, period: 20)
        let pause = Self.floor(1_200), last = Self.tone(800, period: 40)
        let synthesizer = ScriptedSynthesizer(pieces: ["One.": [first, sound, more], "Two.": [pause, last]])
        let server = try await onDedicatedThread { try PulseTestServer() }
        defer { server.stop() }
        var logger = Logger(label: "earshot.speech.test")
        logger.logLevel = .critical
        let engine = try PulseAudioEngine(
            configuration: PulseAudioEngine.Configuration(server: server.serverAddress, applicationName: "Earshot tests"),
            logger: logger
        )
        try engine.start()
        defer { engine.stop() }
        #expect(await engine.waitUntilPlayable(), "the engine never connected")
        let reports = Mutex<[PlaybackReport]>([])
        let player = SpeechPlayer(engine: engine, synthesizer: synthesizer, tap: SpeakerTap(), logger: logger) { report in
            reports.withLock { $0.append(report) }
        }
        let recording = try server.record()
        try await Task.sleep(for: .milliseconds(200))
        let voice = Voice(id: "test", displayName: "Test", summary: "", language: "en-US")
        player.speak(reply: 1, text: "One. Two.", voice: voice)
        let deadline = ContinuousClock.now + .seconds(10)
        while !reports.withLock({ $0.contains(.finished(reply: 1)) }), ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        try await Task.sleep(for: .milliseconds(150))
        let recorded = await onDedicatedThread { recording.stop() }
        #expect(reports.withLock { $0.contains(.started(reply: 1)) })
        #expect(reports.withLock { $0.last } == .finished(reply: 1))

        let leadIn = LeadingSilenceTrim.defaultLeadIn
        let expected = (first.suffix(leadIn) + sound + more + pause + last).map { Float($0) / 32768 }
        let start = try #require(recorded.firstIndex { $0 != 0 }, "nothing reached the speaker")
        try #require(start + expected.count <= recorded.count, "the reply was cut short")
        let played = Array(recorded[start..<(start + expected.count)])
        let worst = zip(played, expected).map { abs($0 - $1) }.max() ?? 0
        #expect(worst < 0.001, "the speaker did not play the pieces back to back from the lead-in on (worst sample off by \(worst))")
        #expect(recorded[(start + expected.count)...].allSatisfy { $0 == 0 }, "sound after the reply's end")
    }
}
