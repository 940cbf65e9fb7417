import EarshotBase
import EarshotEngines
import EarshotSpeech
import EarshotTestSupport
import Testing

/// Records what an engine reports about loading and releasing, released after `idle`.
final class EngineMemoryLog: Sendable {
    static let idle = Duration.milliseconds(200)

    private let events = Locked<[String]>([])

    var unload: IdleUnload { unload(after: Self.idle) }

    func unload(after idle: Duration) -> IdleUnload {
        IdleUnload(after: idle) { event in
            let line = switch event {
            case .loaded(let what, _): "loaded \(what)"
            case .released(let what, let idle): "released \(what) after \(idle)"
            }
            self.events.withLock { $0.append(line) }
        }
    }

    var lines: [String] { events.withLock { $0 } }

    var releases: Int { lines.count { $0.hasPrefix("released") } }
}

// Each engine is one per process: these tests are in its serialized suite and hold the
// embedded engines alone, since another suite's text in a parallel run would restart the idle time.
extension EspeakSynthesizerTests {
    /// Several rounds: espeak-ng 1.51 could not be terminated a second time in one process.
    @Test(.timeLimit(.minutes(1)))
    func espeakIsReleasedWhenIdleAndStartsAgainForTheNextText() async throws {
        try await EngineGate.embeddedSpeech.alone {
            let log = EngineMemoryLog()
            let idle = EspeakSynthesizer(unload: log.unload)
            var durations: [Double] = []
            // An earlier test may have left espeak-ng loaded for the first round; the others start it afresh.
            for (round, voice) in ["en-us", "en-us", "de", "en-us"].enumerated() {
                let speech = try await SynthesizedSpeech.collect(idle.synthesize("Turn on the kitchen lights, please.", settings: .init(voice: voice)))
                #expect(idle.isLoaded)
                #expect(speech.sampleRates == [22_050])
                #expect(speech.rms > 300)
                durations.append(speech.duration)
                #expect(await eventually { log.releases == round + 1 }, "released after \(EngineMemoryLog.idle) idle")
                #expect(!idle.isLoaded)
            }
            // espeak-ng is deterministic: started afresh, the same text in the same voice comes out the same.
            #expect(durations[1] == durations[3], "\(durations)")
            let cycle = ["loaded espeak-ng", "released espeak-ng after \(EngineMemoryLog.idle)"]
            #expect(Array(log.lines.suffix(6)) == cycle + cycle + cycle)
        }
    }
}

extension FliteSynthesizerTests {
    @Test func fliteVoicesAreReleasedWhenIdleAndLoadAgainForTheNextText() async throws {
        try await EngineGate.embeddedSpeech.alone {
            let log = EngineMemoryLog()
            let idle = FliteSynthesizer(unload: log.unload)
            var durations: [Double] = []
            for round in 1...3 {
                async let slt = SynthesizedSpeech.collect(idle.synthesize("What time is it?", settings: .init(voice: "slt")))
                async let kal = SynthesizedSpeech.collect(idle.synthesize("What time is it?", settings: .init(voice: "kal")))
                let (female, male) = try await (slt, kal)
                #expect(female.sampleRates == [16_000] && male.sampleRates == [8_000])
                #expect(female.rms > 300 && male.rms > 300)
                durations.append(female.duration)
                #expect(await eventually { log.releases == round }, "released after \(EngineMemoryLog.idle) idle")
                #expect(!idle.isLoaded)
            }
            // flite adds noise of its own, so compare lengths, not samples.
            #expect(Set(durations).count == 1, "\(durations)")
            let cycle = ["loaded flite", "released flite after \(EngineMemoryLog.idle)"]
            #expect(Array(log.lines.suffix(4)) == cycle + cycle)
        }
    }
}
