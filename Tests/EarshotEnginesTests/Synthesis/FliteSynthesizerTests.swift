import EarshotEngines
import EarshotSpeech
import Testing

/// Serialized: flite speaks one text at a time anyway, and the timings printed mean more alone.
@Suite(.serialized)
struct FliteSynthesizerTests {
    let synthesizer = FliteSynthesizer()

    static func voice(_ flite: Voice.Flite?) -> Voice {
        Voice(id: "test", displayName: "Test", summary: "for tests", language: "en-US", flite: flite)
    }

    @Test func sltSpeaksASentenceAt16kHz() async throws {
        let stream = synthesizer.synthesize("Turn on the kitchen lights, please.", voice: Self.voice(.init(voice: "slt")))
        let speech = try await SynthesizedSpeech.collect(stream)
        print("flite slt: \(speech.chunks.count) chunks, \(speech.duration.rounded) s, first chunk after "
            + "\(speech.firstChunkLatency?.millisecondsText ?? "-"), RTF \(speech.realTimeFactor.rounded)")
        #expect(speech.sampleRates == [16_000])
        #expect((0.5...6).contains(speech.duration))
        #expect(speech.rms > 300)
        #expect(speech.chunks.count > 1, "streamed, not delivered whole")
    }

    @Test(arguments: FliteVoice.allCases)
    func everyBuiltInVoiceSpeaksAtItsOwnRate(voice: FliteVoice) async throws {
        let speech = try await SynthesizedSpeech.collect(
            synthesizer.synthesize("What time is it?", settings: .init(voice: voice.rawValue)))
        #expect(speech.sampleRates == [voice == .kal ? 8_000 : 16_000])
        #expect((0.4...4).contains(speech.duration))
        #expect(speech.rms > 300)
    }

    @Test func aDurationStretchSpeaksMoreSlowly() async throws {
        let text = "Set a timer for ten minutes."
        let normal = try await SynthesizedSpeech.collect(synthesizer.synthesize(text, settings: .init(voice: "slt")))
        let slow = try await SynthesizedSpeech.collect(
            synthesizer.synthesize(text, settings: .init(voice: "slt", durationStretch: 1.5)))
        print("flite slt: \(normal.duration.rounded) s at stretch 1, \(slow.duration.rounded) s at 1.5")
        #expect(slow.duration > normal.duration * 1.3)
        // Settings do not stick to the voice: the next text at stretch 1 is as long as the first.
        let again = try await SynthesizedSpeech.collect(synthesizer.synthesize(text, settings: .init(voice: "slt")))
        #expect(again.duration == normal.duration)
    }

    @Test func aHigherPitchChangesTheVoice() async throws {
        let text = "Good morning."
        let low = try await SynthesizedSpeech.collect(synthesizer.synthesize(text, settings: .init(voice: "kal16", pitchHz: 90)))
        let high = try await SynthesizedSpeech.collect(synthesizer.synthesize(text, settings: .init(voice: "kal16", pitchHz: 160)))
        let lowPitch = try #require(low.medianPitch), highPitch = try #require(high.medianPitch)
        print("flite kal16: median pitch \(Int(lowPitch)) Hz asked 90, \(Int(highPitch)) Hz asked 160")
        #expect(highPitch > lowPitch * 1.3)
    }

    @Test func longTextArrivesSentenceBySentence() async throws {
        let text = "First sentence here. Second sentence there! Is this the third one?"
        let speech = try await SynthesizedSpeech.collect(synthesizer.synthesize(text, settings: .init(voice: "slt")))
        #expect((2...12).contains(speech.duration))
    }

    @Test func aVoiceWithoutFliteSettingsIsAMisconfiguration() async throws {
        let error = await #expect(throws: SpeechError.self) {
            _ = try await SynthesizedSpeech.collect(synthesizer.synthesize("Hello.", voice: Self.voice(nil)))
        }
        #expect(error?.kind == .misconfigured)
        #expect(error?.message.contains("Test") == true)
    }

    @Test func anUnknownVoiceIsRejected() async throws {
        let error = await #expect(throws: SpeechError.self) {
            _ = try await SynthesizedSpeech.collect(synthesizer.synthesize("Hello.", settings: .init(voice: "hal9000")))
        }
        #expect(error?.kind == .rejected)
        #expect(error?.message.contains("slt") == true)
    }

    @Test func unusableSettingsAreAMisconfiguration() async throws {
        let error = await #expect(throws: SpeechError.self) {
            _ = try await SynthesizedSpeech.collect(
                synthesizer.synthesize("Hello.", settings: .init(voice: "slt", durationStretch: 0)))
        }
        #expect(error?.kind == .misconfigured)
    }

    @Test func textsSpokenAtOnceComeOutAsIfSpokenInTurn() async throws {
        // flite adds noise of its own, so compare lengths, not samples.
        let alone = try await SynthesizedSpeech.collect(
            synthesizer.synthesize("Read my messages.", settings: .init(voice: "awb", durationStretch: 1.2)))
        async let first = SynthesizedSpeech.collect(
            synthesizer.synthesize("Read my messages.", settings: .init(voice: "awb", durationStretch: 1.2)))
        async let second = SynthesizedSpeech.collect(synthesizer.synthesize("Play some music.", settings: .init(voice: "rms")))
        let (a, b) = try await (first, second)
        #expect(a.duration == alone.duration)
        #expect(a.sampleRates == [16_000] && b.sampleRates == [16_000])
        #expect(b.rms > 300)
    }

    @Test func stoppingEarlyStopsTheSynthesis() async throws {
        let start = ContinuousClock.now
        for try await chunk in synthesizer.synthesize(longText, settings: .init(voice: "slt")) {
            #expect(!chunk.samples.isEmpty)
            break
        }
        let next = try await SynthesizedSpeech.collect(synthesizer.synthesize("Stop.", settings: .init(voice: "slt")))
        let elapsed = ContinuousClock.now - start
        print("flite: long text stopped after one chunk; the next text was done \(elapsed.millisecondsText) after the first began")
        #expect(next.rms > 300)
        // Synthesizing all of the long text takes about 15 s.
        #expect(elapsed < .seconds(3))
    }
}

