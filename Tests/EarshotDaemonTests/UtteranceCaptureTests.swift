import EarshotAudio
@testable import EarshotDaemon
import Testing

/// The pipeline thread's side of debug recording: what it collects per turn, in memory.
@Suite struct UtteranceCaptureTests {
    /// Frame `index` whose every sample is `value`.
    static func frame(_ index: Int, _ value: Float) -> AudioFrame {
        AudioFrame(index: index, samples: .init(repeating: value))
    }

    @Test func anUtteranceHoldsItsLeadInAndEveryFrameAfterIt() throws {
        var capture = UtteranceCapture()
        capture.begin(turn: 1, frames: [Self.frame(50, 0.5), Self.frame(51, -0.5)], wall: 1000)
        capture.append(Self.frame(52, 0.25), turn: 1)
        capture.append(Self.frame(53, 1.5), turn: 1)
        capture.append(Self.frame(99, 0.9), turn: 2)
        let ended = capture.end(turn: 1)
        let finished = try #require(ended)
        #expect(finished.turn == 1)
        #expect(finished.samples.count == 4 * AudioFrame.sampleCount)
        #expect(finished.samples[0] == 16_384 && finished.samples[160] == -16_384 && finished.samples[320] == 8_192)
        #expect(finished.samples[480] == 32_767, "clipped, not wrapped")
        #expect(abs(finished.audioStart - 0.50) < 1e-9 && abs(finished.audioEnd - 0.54) < 1e-9)
        #expect(abs(finished.startedAt - 999.98) < 1e-9, "the lead-in was captured two frames before now")
        #expect(!finished.truncated)
        #expect(capture.end(turn: 1) == nil, "an utterance ends once")
    }

    @Test func aHeldTurnStartsWithItsFirstFrame() throws {
        var capture = UtteranceCapture()
        capture.begin(turn: 4, frames: [], wall: 1000)
        capture.append(Self.frame(70, 0.5), turn: 4)
        capture.append(Self.frame(71, 0.5), turn: 4)
        let ended = capture.end(turn: 4)
        let finished = try #require(ended)
        #expect(abs(finished.audioStart - 0.70) < 1e-9 && abs(finished.audioEnd - 0.72) < 1e-9)
        #expect(finished.samples.count == 2 * AudioFrame.sampleCount)
    }

    @Test func aDiscardedOrForgottenUtteranceIsNotHandedOn() {
        var capture = UtteranceCapture()
        capture.begin(turn: 1, frames: [Self.frame(0, 0.1)], wall: 0)
        capture.discard(turn: 1)
        #expect(capture.end(turn: 1) == nil)
        capture.begin(turn: 2, frames: [Self.frame(5, 0.1)], wall: 0)
        #expect(capture.forget() == 1)
        capture.append(Self.frame(6, 0.1), turn: 2)
        #expect(capture.end(turn: 2) == nil)
        capture.begin(turn: 3, frames: [Self.frame(9, 0.1)], wall: 0)
        #expect(capture.end(turn: 3)?.generation == 1, "what is recorded after forget belongs to the new generation")
    }

    @Test func aVeryLongUtteranceKeepsItsFirstMinuteAndSaysSo() throws {
        var capture = UtteranceCapture()
        capture.begin(turn: 1, frames: [], wall: 0)
        let frames = UtteranceCapture.maximumSeconds * 100 + 250
        for index in 0..<frames { capture.append(Self.frame(index, 0.1), turn: 1) }
        let ended = capture.end(turn: 1)
        let finished = try #require(ended)
        #expect(finished.samples.count == UtteranceCapture.capacity)
        #expect(finished.truncated)
        #expect(abs(finished.audioEnd - finished.audioStart - Double(UtteranceCapture.maximumSeconds)) < 1e-9)
    }

    @Test func buffersComeBackAndAreReusedWithoutGrowing() throws {
        var capture = UtteranceCapture()
        capture.begin(turn: 1, frames: [Self.frame(0, 0.2)], wall: 0)
        let firstEnded = capture.end(turn: 1)
        let first = try #require(firstEnded)
        #expect(first.samples.capacity >= UtteranceCapture.capacity)
        capture.recycle(first.samples)
        capture.begin(turn: 2, frames: [Self.frame(1, 0.3)], wall: 0)
        let secondEnded = capture.end(turn: 2)
        let second = try #require(secondEnded)
        #expect(second.samples.count == AudioFrame.sampleCount, "an earlier utterance's samples do not leak into the next")
        #expect(second.samples[0] == 9_830)
    }

    @Test func theReplyIsTheOneThatFollowsTheTurnsRequest() {
        var capture = UtteranceCapture()
        #expect(capture.replyStarted() == nil, "an unprompted reply answers no turn")
        capture.replyRequested(turn: 4)
        #expect(capture.replyStarted() == 4)
        #expect(capture.replyStarted() == nil, "only the reply's first part")
        capture.replyRequested(turn: 5)
        capture.replyAbandoned()
        #expect(capture.replyStarted() == nil, "a declined turn's reply does not take the next one")
    }
}
