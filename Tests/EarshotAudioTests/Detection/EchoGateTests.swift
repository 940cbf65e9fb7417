import EarshotAudio
@testable import EarshotAudio
import Foundation
import Testing

@Suite struct EchoGateTests {
    private typealias Scene = EchoGateScene

    /// Near-end verdicts allowed on echo alone, as a share of the frames the gate was closed.
    /// Measured 0 in every case below; 1 % leaves room for retuning while staying far below what
    /// could confirm a barge-in (the endpointer needs 100 ms and more of confident speech).
    private static let echoLeakLimit = 0.01

    @Test(arguments: [40, 120, 173, 250])
    func echoAloneNeverCountsAsThePerson(delayMilliseconds: Int) throws {
        let reply = try Scene.assistantReply()
        let count = reply.count + 8_000
        for gain: Float in [1, 0.3, 0.05] {
            var microphone = Scene.echo(of: reply, milliseconds: delayMilliseconds, gain: gain, count: count)
            Scene.add(Scene.noise(count: count, dBFS: -60, seed: 1), to: &microphone)
            var gate = EchoGate()
            let verdicts = Scene.verdicts(played: reply, captured: microphone, gate: &gate)
            let closed = verdicts.filter { $0 != .open }.count
            let leaks = verdicts.filter { $0 == .nearEnd }.count
            let share = Double(leaks) / Double(max(closed, 1))
            print("echo only, \(delayMilliseconds) ms × \(gain): \(leaks) near-end of \(closed) closed frames, delay locked at \(gate.delayFrames.map { "\($0 * 10) ms" } ?? "none")")
            #expect(share <= Self.echoLeakLimit, "\(delayMilliseconds) ms × \(gain): \(leaks) of \(closed)")
            #expect(closed >= AudioClip(samples: reply).frameCount, "the gate stays closed while the reply plays")
        }
    }

    @Test func echoInAReverberantRoomNeverCountsAsThePerson() throws {
        let reply = try Scene.assistantReply()
        // RT60 400 ms with as much energy in the tail as in the direct sound, at -10 dB.
        let room = Scene.reverberant(reply, rt60: 0.4, tailDecibels: 0)
        let count = room.count + 8_000
        var microphone = Scene.echo(of: room, milliseconds: 90, gain: 0.3, count: count)
        Scene.add(Scene.noise(count: count, dBFS: -55, seed: 2), to: &microphone)
        var gate = EchoGate()
        let verdicts = Scene.verdicts(played: reply, captured: microphone, gate: &gate)
        let closed = verdicts.filter { $0 != .open }.count
        let leaks = verdicts.filter { $0 == .nearEnd }.count
        print("reverberant echo, 90 ms × 0.3: \(leaks) near-end of \(closed) closed frames")
        #expect(Double(leaks) <= Self.echoLeakLimit * Double(closed))
    }

    @Test(arguments: [40, 120, 250])
    func thePersonTalkingOverTheReplyPasses(delayMilliseconds: Int) throws {
        let reply = try Scene.assistantReply()
        let count = reply.count + 8_000
        let person = Scene.PersonTrack(utterances: try Scene.personUtterances(), count: reply.count, firstFrame: 150, gapFrames: 150)
        #expect(person.onsets.count >= 5)
        // The echo 10 dB down (a laptop's loudspeaker at a moderate volume), the person at the
        // fixtures' level, about 26 dBFS RMS: the person some 10 dB above the echo.
        for gain: Float in [0.3, 1] {
            var microphone = Scene.echo(of: reply, milliseconds: delayMilliseconds, gain: gain, count: count)
            Scene.add(Scene.noise(count: count, dBFS: -60, seed: 3), to: &microphone)
            Scene.add(person.samples, to: &microphone)
            var gate = EchoGate()
            let verdicts = Scene.verdicts(played: reply, captured: microphone, gate: &gate)

            let speech = person.labels.indices.filter { person.labels[$0] }
            let passed = speech.filter { verdicts[$0].passes }.count
            let share = Double(passed) / Double(speech.count)
            let latencies = person.onsets.map { onset in
                (onset..<min(onset + 100, verdicts.count)).first { verdicts[$0].passes }.map { ($0 - onset) * 10 }
            }
            let away = verdicts.indices.filter { !person.isNearSpeech($0) && verdicts[$0] != .open }
            let leaks = away.filter { verdicts[$0] == .nearEnd }.count
            print(String(
                format: "person over echo, %d ms × %.1f: %.1f%% of %d speech frames pass; first pass %@ ms after each onset; %d near-end of %d echo-only frames",
                delayMilliseconds, gain, 100 * share, speech.count,
                latencies.map { $0.map(String.init) ?? "never" }.joined(separator: ", "), leaks, away.count
            ))
            #expect(Double(leaks) <= Self.echoLeakLimit * Double(away.count))
            // With the echo as loud as the person (a pure loopback) only the figures are shown:
            // where the echo is louder, the person cannot be told from it by energy.
            guard gain < 1 else { continue }
            #expect(share >= 0.8, "\(delayMilliseconds) ms: \(passed) of \(speech.count)")
            for (onset, latency) in zip(person.onsets, latencies) {
                #expect((latency ?? .max) <= 100, "onset at frame \(onset): \(latency.map(String.init) ?? "never")")
            }
        }
    }

    @Test func withNothingPlayedTheGateIsOpen() throws {
        let person = Scene.PersonTrack(utterances: try Scene.personUtterances(), count: 16_000 * 12, firstFrame: 50, gapFrames: 50)
        var microphone = person.samples
        Scene.add(Scene.noise(count: microphone.count, dBFS: -60, seed: 4), to: &microphone)
        var gate = EchoGate()
        let silence = [Float](repeating: 0, count: microphone.count)
        let verdicts = Scene.verdicts(played: silence, captured: microphone, gate: &gate)
        #expect(verdicts.allSatisfy { $0 == .open })
        #expect(person.labels.indices.filter { person.labels[$0] }.allSatisfy { verdicts[$0].passes })

        // A caller that never feeds the reference at all gets the same.
        var unfed = EchoGate()
        let frames = Array(AudioClip(samples: microphone).frames)
        #expect(frames.allSatisfy { unfed.captured($0) == .open })
    }

    @Test func theGateOpensOnceTheReplyAndItsEchoHaveEnded() throws {
        let reply = Array(try Scene.assistantReply().prefix(16_000 * 3))
        let played = reply + [Float](repeating: 0, count: 16_000 * 2)
        var microphone = Scene.echo(of: played, milliseconds: 120, gain: 0.5, count: played.count)
        Scene.add(Scene.noise(count: played.count, dBFS: -60, seed: 5), to: &microphone)
        var gate = EchoGate()
        let verdicts = Scene.verdicts(played: played, captured: microphone, gate: &gate)
        let lastSound = AudioClip(samples: reply).frameCount
        let opened = try #require(verdicts.indices.first { $0 > lastSound && verdicts[$0] == .open })
        print("gate open \((opened - lastSound) * 10) ms after the last played sound")
        // The delay range (330 ms) must pass, then the predicted echo tail must sink below the noise.
        #expect(opened - lastSound >= 33)
        #expect(opened - lastSound <= 100)
        #expect(verdicts[opened...].allSatisfy { $0 == .open })

        // A caller that stops feeding the reference when playback stops also gets an open gate.
        var stopped = EchoGate()
        let replyFrames = Array(AudioClip(samples: reply).frames), micFrames = Array(AudioClip(samples: microphone).frames)
        for index in replyFrames.indices {
            stopped.played(replyFrames[index])
            _ = stopped.captured(micFrames[index])
        }
        let after = micFrames[replyFrames.count...].map { stopped.captured($0) }
        #expect(after.suffix(50).allSatisfy { $0 == .open })
    }

    @Test func aNewReplyRelocksOntoAnotherDelay() throws {
        let reply = Array(try Scene.assistantReply().prefix(16_000 * 5))
        let pause = [Float](repeating: 0, count: 16_000)
        let played = reply + pause + reply
        // The second playback stream has another latency, as a new PulseAudio stream may.
        var microphone = Scene.echo(of: reply, milliseconds: 40, gain: 0.3, count: reply.count + pause.count)
        microphone += Scene.echo(of: reply, milliseconds: 250, gain: 0.3, count: reply.count + 8_000)
        Scene.add(Scene.noise(count: microphone.count, dBFS: -60, seed: 6), to: &microphone)
        var gate = EchoGate()
        let verdicts = Scene.verdicts(played: played, captured: microphone, gate: &gate)
        let leaks = verdicts.filter { $0 == .nearEnd }.count
        #expect(gate.delayFrames == 25)
        #expect(Double(leaks) <= Self.echoLeakLimit * Double(verdicts.count), "\(leaks) near-end frames")
    }

    @Test func verdictsAreDeterministicAndCopiesRunIndependently() throws {
        let reply = Array(try Scene.assistantReply().prefix(16_000 * 8))
        let person = Scene.PersonTrack(utterances: try Scene.personUtterances(), count: reply.count, firstFrame: 200, gapFrames: 100)
        var microphone = Scene.echo(of: reply, milliseconds: 120, gain: 0.3, count: reply.count)
        Scene.add(person.samples, to: &microphone)
        var first = EchoGate(), second = EchoGate()
        let verdicts = Scene.verdicts(played: reply, captured: microphone, gate: &first)
        #expect(Scene.verdicts(played: reply, captured: microphone, gate: &second) == verdicts)
        #expect(verdicts.contains(.nearEnd) && verdicts.contains(.echo))

        let played = Array(AudioClip(samples: reply).frames), captured = Array(AudioClip(samples: microphone).frames)
        var original = EchoGate()
        for index in 0..<400 {
            original.played(played[index])
            _ = original.captured(captured[index])
        }
        var copy = original
        var fromOriginal: [EchoGate.Verdict] = [], fromCopy: [EchoGate.Verdict] = []
        for index in 400..<played.count {
            original.played(played[index])
            fromOriginal.append(original.captured(captured[index]))
        }
        for index in 400..<played.count {
            copy.played(played[index])
            fromCopy.append(copy.captured(captured[index]))
        }
        #expect(fromOriginal == fromCopy)
        #expect(fromOriginal == Array(verdicts[400...]))

        original.reset()
        #expect(Scene.verdicts(played: reply, captured: microphone, gate: &original) == verdicts)
    }

    @Test func corruptInputDoesNotPoisonTheGate() throws {
        let reply = Array(try Scene.assistantReply().prefix(16_000 * 4))
        var microphone = Scene.echo(of: reply, milliseconds: 40, gain: 0.3, count: reply.count)
        for i in 16_000..<16_160 { microphone[i] = .nan }
        for i in 24_000..<24_160 { microphone[i] = .infinity }
        var gate = EchoGate()
        let verdicts = Scene.verdicts(played: reply, captured: microphone, gate: &gate)
        #expect(verdicts[200...].filter { $0 == .nearEnd }.count <= 2)
    }

    @Test func bandsCoverTheSpeechRangeWithoutGaps() {
        let edges = EchoGate.BandAnalyzer.bandEdges(bandCount: EchoGate.bandCount)
        #expect(edges.count == EchoGate.bandCount + 1)
        #expect(edges.first == 2 && edges.last == 64)
        #expect(zip(edges, edges.dropFirst()).allSatisfy { $1 - $0 >= 2 })
    }

    @Test func costPerFrameIsSmall() throws {
        let reply = try Scene.assistantReply()
        let microphone = Scene.echo(of: reply, milliseconds: 120, gain: 0.3, count: reply.count)
        let played = Array(AudioClip(samples: reply).frames), captured = Array(AudioClip(samples: microphone).frames)
        var gate = EchoGate()
        var nearEnd = 0
        let start = ContinuousClock.now
        for index in played.indices {
            gate.played(played[index])
            if gate.captured(captured[index]) == .nearEnd { nearEnd += 1 }
        }
        let elapsed = ContinuousClock.now - start
        let perFrame = elapsed / played.count
        print("echo gate: \(perFrame) per 10 ms frame (played + captured, this build) over \(played.count) frames")
        #expect(nearEnd == 0)
    }
}
