@testable import EarshotDaemon
import EarshotAudio
import EarshotPulse
import EarshotSpeech
import EarshotTestSupport
import Foundation
import Logging
import Synchronization
import Testing

/// The speech player on a private sound server with a synthesizer whose pieces are known: the
/// player hands the speaker the reply's audio from its first sound on (10 ms lead-in), piece after
/// piece with nothing between them and without waiting, and the speaker plays exactly that.
@Suite(.serialized, .enabled(if: TestPeers.soundServers), .tags(.live))
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

    /// The player is exact, and so is the sound server on an idle machine; on a busy one (two
    /// cores, parallel builds) the server can run dry and play 8 to 100 ms of silence, or drop a
    /// quantum, anywhere in the reply (seen on both servers, with the playback stream's default
    /// prebuf as with one frame). So the reply is said up to three times, and one take must reach
    /// the speaker sample for sample; a player that does not trim, reorders, drops, repeats or
    /// spaces the pieces spoils every take.
    @Test(arguments: SoundServerKind.testable)
    func aReplyInPiecesPlaysFromItsFirstSoundInOrderWithoutGaps(on kind: SoundServerKind) async throws {
        let first = Self.floor(3_000), sound = Self.tone(1_040, period: 32), more = Self.tone(1_040, period: 20)
        let pause = Self.floor(1_200), last = Self.tone(800, period: 40)
        let synthesizer = ScriptedSynthesizer(pieces: ["One.": [first, sound, more], "Two.": [pause, last]])
        // The reply from 10 ms before its first sample above the trim's threshold (the tone's first
        // sample is 0, so 159 samples of the floor and that 0), then every piece back to back.
        let reply = (first + sound + more + pause + last).map { Float($0) / 32768 }
        let onset = try #require(reply.firstIndex { abs($0) > LeadingSilenceTrim.defaultThreshold })
        let expected = Array(reply[(onset - LeadingSilenceTrim.defaultLeadIn)...])
        let firstSentence = Duration.seconds(Double(first.count + sound.count + more.count - onset + LeadingSilenceTrim.defaultLeadIn) / 16_000)

        let server = try await onDedicatedThread { try kind.start() }
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
        let reports = Mutex<[(report: PlaybackReport, time: ContinuousClock.Instant)]>([])
        let tap = SpeakerTap()
        let player = SpeechPlayer(engine: engine, synthesizer: synthesizer, tap: tap, logger: logger) { report in
            reports.withLock { $0.append((report, ContinuousClock.now)) }
        }
        let voice = Voice(id: "test", displayName: "Test", summary: "", language: "en-US")

        var spoiled: [String] = []
        for take in 1...3 {
            let recording = try server.record()
            try await Task.sleep(for: .milliseconds(200))
            player.speak(reply: take, text: "One. Two.", voice: voice)
            let deadline = ContinuousClock.now + .seconds(10)
            while !reports.withLock({ $0.contains { $0.report == .finished(reply: take) } }), ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(20))
            }
            try await Task.sleep(for: .milliseconds(150))
            let recorded = await onDedicatedThread { recording.stop() }
            let told = reports.withLock { reports in reports.filter { $0.report.reply == take } }
            #expect(told.first?.report == .saying(reply: take, voice: "test", text: "One.", first: true))
            #expect(told.contains { $0.report == .started(reply: take) })
            #expect(told.last?.report == .finished(reply: take))
            // Played to its end, the reply was heard whole.
            #expect(told.dropLast().last?.report == .heard(reply: take, text: "One. Two."))

            // What the player handed the speaker: exactly that, nothing between the pieces.
            var handed: [Float] = []
            while let frame = tap.nextFrame(index: 0) { handed += (0..<AudioFrame.sampleCount).map { frame.samples[$0] } }
            #expect(Array(handed.prefix(expected.count)) == expected, "the player did not hand the speaker the lead-in and the pieces back to back")
            #expect(handed.count - expected.count < AudioFrame.sampleCount && handed.dropFirst(expected.count).allSatisfy { $0 == 0 },
                    "the player handed the speaker more than the reply")

            // Without waiting: the second sentence was queued before the speaker could have
            // played the first (140 ms of audio from the lead-in on).
            let started = try #require(told.first { $0.report == .started(reply: take) }?.time)
            let second = try #require(told.first { $0.report == .saying(reply: take, voice: "test", text: "Two.", first: false) }?.time)
            #expect(second - started < firstSentence, "the second sentence was queued \(second - started) after the first")

            // What the speaker played: that, sample for sample, from its first sound on, then silence.
            let start = try #require(recorded.firstIndex { $0 != 0 }, "nothing reached the speaker")
            let played = recorded[start...]
            let departure = (0..<min(played.count, expected.count)).first { played[start + $0] != expected[$0] }
            if let departure = departure ?? (played.count < expected.count ? played.count : nil) {
                spoiled.append("take \(take) departs from the reply at sample \(departure) of \(expected.count)")
            } else if let after = played.dropFirst(expected.count).firstIndex(where: { $0 != 0 }) {
                spoiled.append("take \(take) has sound \(after - start - expected.count) samples after the reply's end")
            } else {
                if !spoiled.isEmpty { print("speech player on \(kind): take \(take) exact after a sound server glitch: \(spoiled)") }
                return
            }
        }
        Issue.record("the speaker never played the reply sample for sample from its lead-in on: \(spoiled.joined(separator: "; "))")
    }
}

extension PlaybackReport {
    var reply: Int {
        switch self {
        case .started(let reply), .stopped(let reply), .finished(let reply): reply
        case .saying(let reply, _, _, _), .failed(let reply, _, _), .heard(let reply, _): reply
        }
    }
}
