import EarshotEngines
import EarshotSpeech
import Testing

@Suite(.serialized)
struct EspeakSynthesizerTests {
    let synthesizer = EspeakSynthesizer()

    static func voice(_ espeak: Voice.Espeak?) -> Voice {
        Voice(id: "test", displayName: "Test", summary: "for tests", language: "en-US", espeak: espeak)
    }

    @Test(arguments: [
        ("en-us", "Turn on the kitchen lights, please."),
        ("en-us+f2", "Turn on the kitchen lights, please."),
        ("de", "Schalte bitte das Licht in der Küche ein."),
        ("fr", "Allume la lumière de la cuisine, s'il te plaît."),
    ])
    func speaksAt22050Hz(voice: String, text: String) async throws {
        let speech = try await SynthesizedSpeech.collect(synthesizer.synthesize(text, voice: Self.voice(.init(voice: voice))))
        print("espeak-ng \(voice): \(speech.chunks.count) chunks, \(speech.duration.rounded) s, first chunk after "
            + "\(speech.firstChunkLatency?.millisecondsText ?? "-"), RTF \(speech.realTimeFactor.rounded)")
        #expect(speech.sampleRates == [22_050])
        #expect((0.5...6).contains(speech.duration))
        #expect(speech.rms > 300)
    }

    @Test func aFasterRateSpeaksMoreQuickly() async throws {
        let text = "Remind me to buy milk on the way home tonight."
        let slow = try await SynthesizedSpeech.collect(synthesizer.synthesize(text, settings: .init(voice: "en-us", rate: 120)))
        let fast = try await SynthesizedSpeech.collect(synthesizer.synthesize(text, settings: .init(voice: "en-us", rate: 300)))
        print("espeak-ng: \(slow.duration.rounded) s at 120 wpm, \(fast.duration.rounded) s at 300 wpm")
        #expect(fast.duration < slow.duration * 0.7)
    }

    @Test func pitchChangesTheVoice() async throws {
        let low = try await SynthesizedSpeech.collect(synthesizer.synthesize("Hello.", settings: .init(voice: "en-us", pitch: 20)))
        let high = try await SynthesizedSpeech.collect(synthesizer.synthesize("Hello.", settings: .init(voice: "en-us", pitch: 80)))
        let lowPitch = try #require(low.medianPitch), highPitch = try #require(high.medianPitch)
        print("espeak-ng en-us: median pitch \(Int(lowPitch)) Hz at 20, \(Int(highPitch)) Hz at 80")
        #expect(highPitch > lowPitch * 1.2)
    }

    @Test func aVoiceWithoutEspeakSettingsIsAMisconfiguration() async throws {
        let error = await #expect(throws: SpeechError.self) {
            _ = try await SynthesizedSpeech.collect(synthesizer.synthesize("Hello.", voice: Self.voice(nil)))
        }
        #expect(error?.kind == .misconfigured)
        #expect(error?.message.contains("Test") == true)
    }

    @Test func anUnknownVoiceIsRejected() async throws {
        let error = await #expect(throws: SpeechError.self) {
            _ = try await SynthesizedSpeech.collect(synthesizer.synthesize("Hello.", settings: .init(voice: "xx-nowhere")))
        }
        #expect(error?.kind == .rejected)
        #expect(error?.message.contains("xx-nowhere") == true)
    }

    @Test func stoppingEarlyStopsTheSynthesis() async throws {
        let whole = try await SynthesizedSpeech.collect(synthesizer.synthesize(longText, settings: .init(voice: "en-us")))
        let start = ContinuousClock.now
        for try await chunk in synthesizer.synthesize(longText, settings: .init(voice: "en-us")) {
            #expect(!chunk.samples.isEmpty)
            break
        }
        let next = try await SynthesizedSpeech.collect(synthesizer.synthesize("Stop.", settings: .init(voice: "en-us")))
        let elapsed = ContinuousClock.now - start
        print("espeak-ng: the whole long text (\(whole.duration.rounded) s) took \(whole.elapsed.millisecondsText); stopped after one "
            + "chunk, the next text was done \(elapsed.millisecondsText) after the first began")
        #expect(next.rms > 300)
        #expect(elapsed < whole.elapsed / 2)
    }
}
