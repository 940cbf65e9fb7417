import EarshotConversation
import EarshotSpeech
import Testing

@Suite struct TranscriptionQueueTests {
    static let fast = TranscriptionQueue.Configuration(
        capacity: 3, firstRetryDelay: .milliseconds(20), maximumRetryDelay: .milliseconds(80)
    )

    static func isFinal(_ turn: Int) -> (TranscriptionReport) -> Bool {
        { if case .final(turn, _) = $0 { true } else { false } }
    }

    @Test func audioStreamsWhileTheUtteranceGoesOnAndTheFinalComesAtTheEnd() async throws {
        let log = ReportLog()
        let transcriber = ScriptedTranscriber()
        let queue = TranscriptionQueue(transcriber: transcriber, configuration: Self.fast, report: log.record)
        queue.begin(turn: 1, samples: Array(repeating: 1, count: 4800))
        let partial = await log.wait { $0 == .partial(turn: 1, text: "4800") }
        #expect(partial != nil, "the prefix is transcribed before the utterance ends")
        queue.append(turn: 1, samples: Array(repeating: 2, count: 160))
        queue.end(turn: 1)
        let final = await log.wait(for: Self.isFinal(1))
        #expect(final == .final(turn: 1, text: "samples 4960"))
        queue.close()
    }

    @Test func aRejoiningUtteranceIsTranscribedWithTheEarlierOnesAudioBeforeIt() async throws {
        let log = ReportLog()
        let queue = TranscriptionQueue(transcriber: ScriptedTranscriber(), configuration: Self.fast, report: log.record)
        queue.begin(turn: 1, samples: Array(repeating: 1, count: 3200))
        queue.end(turn: 1)
        #expect(await log.wait(for: Self.isFinal(1)) == .final(turn: 1, text: "samples 3200"))
        queue.rejoin(from: 1, turn: 2)
        queue.begin(turn: 2, samples: Array(repeating: 2, count: 1600))
        queue.end(turn: 2)
        #expect(await log.wait(for: Self.isFinal(2)) == .final(turn: 2, text: "samples 4800"))
        // Only the utterance that ended last can be gone on with, and only by the turn named.
        queue.rejoin(from: 1, turn: 3)
        queue.begin(turn: 3, samples: Array(repeating: 3, count: 800))
        queue.end(turn: 3)
        #expect(await log.wait(for: Self.isFinal(3)) == .final(turn: 3, text: "samples 800"))
        queue.close()
    }

    @Test func anUnreachableBackendKeepsTheAudioAndTranscribesItWhenItReturns() async throws {
        let log = ReportLog()
        let transcriber = ScriptedTranscriber()
        transcriber.unreachable.store(true, ordering: .relaxed)
        let queue = TranscriptionQueue(transcriber: transcriber, configuration: Self.fast, report: log.record)
        queue.begin(turn: 1, samples: Array(repeating: 1, count: 3200))
        queue.append(turn: 1, samples: Array(repeating: 1, count: 160))
        queue.end(turn: 1)
        let failure = await log.wait { if case .failed(1, _, _) = $0 { true } else { false } }
        guard case .failed(_, let message, let retryIn) = failure else {
            Issue.record("no failure reported: \(log.all)")
            return
        }
        #expect(message.contains("unreachable"))
        #expect(message.contains("kept"))
        #expect(retryIn > 0 && retryIn <= 0.08)
        // Meanwhile the person speaks again: the second utterance is reported failed as it ends.
        queue.begin(turn: 2, samples: Array(repeating: 1, count: 1600))
        queue.end(turn: 2)
        #expect(await log.wait { if case .failed(2, _, _) = $0 { true } else { false } } != nil)
        transcriber.unreachable.store(false, ordering: .relaxed)
        #expect(await log.wait(for: Self.isFinal(1)) == .final(turn: 1, text: "samples 3360"))
        #expect(await log.wait(for: Self.isFinal(2)) == .final(turn: 2, text: "samples 1600"))
        let finals = log.all.filter { if case .final = $0 { true } else { false } }
        #expect(finals == [.final(turn: 1, text: "samples 3360"), .final(turn: 2, text: "samples 1600")])
        #expect(transcriber.attemptedSampleCounts.filter { $0 >= 0 } == [3360, 1600])
        queue.close()
    }

    @Test func pastItsCapacityTheOldestUtteranceIsDroppedWithAReport() async throws {
        let log = ReportLog()
        let transcriber = ScriptedTranscriber()
        transcriber.unreachable.store(true, ordering: .relaxed)
        let queue = TranscriptionQueue(transcriber: transcriber, configuration: Self.fast, report: log.record)
        for turn in 1...4 {
            queue.begin(turn: turn, samples: Array(repeating: 1, count: 160 * turn))
            queue.end(turn: turn)
        }
        let dropped = await log.wait { if case .dropped = $0 { true } else { false } }
        guard case .dropped(let turn, let message) = dropped else {
            Issue.record("nothing dropped: \(log.all)")
            return
        }
        #expect(turn == 1)
        #expect(message.contains("3 utterances were already waiting"))
        transcriber.unreachable.store(false, ordering: .relaxed)
        #expect(await log.wait(for: Self.isFinal(4)) != nil)
        #expect(!log.all.contains { if case .final(1, _) = $0 { true } else { false } })
        queue.close()
    }

    @Test func anEagerEndReportsTheUtteranceSoFarOnceAndItsOwnFinalIsDropped() async throws {
        let log = ReportLog()
        let queue = TranscriptionQueue(transcriber: ScriptedTranscriber(), configuration: Self.fast, report: log.record)
        queue.begin(turn: 1, samples: Array(repeating: 1, count: 4800))
        queue.finalize(turn: 1)
        #expect(await log.wait(for: Self.isFinal(1)) == .final(turn: 1, text: "samples 4800"))
        queue.append(turn: 1, samples: Array(repeating: 2, count: 160))
        queue.end(turn: 1)
        queue.begin(turn: 2, samples: [1, 2])
        queue.end(turn: 2)
        _ = await log.wait(for: Self.isFinal(2))
        #expect(log.all.filter(Self.isFinal(1)).count == 1)
        queue.close()
    }

    @Test func aResumedUtteranceIsTranscribedWholeAsTheNextTurn() async throws {
        let log = ReportLog()
        let queue = TranscriptionQueue(transcriber: ScriptedTranscriber(), configuration: Self.fast, report: log.record)
        queue.begin(turn: 1, samples: Array(repeating: 1, count: 4800))
        queue.finalize(turn: 1)
        #expect(await log.wait(for: Self.isFinal(1)) == .final(turn: 1, text: "samples 4800"))
        queue.append(turn: 1, samples: Array(repeating: 2, count: 160))
        queue.continueUtterance(from: 1, turn: 2)
        queue.append(turn: 2, samples: Array(repeating: 3, count: 160))
        #expect(await log.wait { $0 == .partial(turn: 2, text: "5120") } != nil, "its partials go on as the next turn's")
        queue.end(turn: 2)
        #expect(await log.wait(for: Self.isFinal(2)) == .final(turn: 2, text: "samples 5120"))
        #expect(log.all.filter(Self.isFinal(1)).count == 1)
        queue.close()
    }

    @Test func aDiscardedUtteranceIsNeverReported() async throws {
        let log = ReportLog()
        let queue = TranscriptionQueue(transcriber: ScriptedTranscriber(), configuration: Self.fast, report: log.record)
        queue.begin(turn: 1, samples: [1, 2, 3])
        queue.discard(turn: 1)
        queue.begin(turn: 2, samples: [1, 2])
        queue.end(turn: 2)
        #expect(await log.wait(for: Self.isFinal(2)) == .final(turn: 2, text: "samples 2"))
        #expect(!log.all.contains { if case .final(1, _) = $0 { true } else { false } })
        queue.close()
    }
}
