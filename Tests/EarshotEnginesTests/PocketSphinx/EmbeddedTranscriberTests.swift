import EarshotBase
import EarshotEngines
import EarshotSpeech
import Foundation
import Testing

/// pocketsphinx heard through flite's voices. Serialized: one decoder does all the work, and the
/// timings printed mean more without other tests decoding at the same time.
@Suite(.serialized)
struct EmbeddedTranscriberTests {
    static let transcriber = EmbeddedTranscriber()

    /// What people say to a voice assistant.
    static let commands = [
        "turn on the kitchen lights",
        "what is the weather like tomorrow",
        "set a timer for ten minutes",
        "play some music in the living room",
        "call my mother on her mobile phone",
        "remind me to buy milk tonight",
        "how far is it to the nearest train station",
        "turn off all the lights in the bedroom",
        "read my new messages",
        "add eggs and bread to the shopping list",
    ]

    @Test func loadsTheModelFromDebiansPackage() async throws {
        let transcriber = EmbeddedTranscriber()
        let start = ContinuousClock.now
        try await transcriber.prepare()
        print("pocketsphinx model load: \((ContinuousClock.now - start).formatted(.units(allowed: [.milliseconds])))")
        let utterance = try await SpokenUtterance.speak("read my new messages", voice: .slt)
        let heard = try await transcriber.transcribe(utterance.audio, language: "en") { _ in }
        #expect(WordErrorRate.of(reference: utterance.text, hypothesis: heard) <= 0.25, "heard \"\(heard)\"")
    }

    @Test func commandsSpokenByFliteAreUnderstood() async throws {
        var overall = WordErrorRate()
        for voice in [FliteVoice.slt, .kal16] {
            var rate = WordErrorRate()
            var audioSeconds = 0.0
            var decoding = Duration.zero
            for command in Self.commands {
                let utterance = try await SpokenUtterance.speak(command, voice: voice)
                let start = ContinuousClock.now
                let heard = try await Self.transcriber.transcribe(utterance.audio, language: "en-US") { _ in }
                decoding += ContinuousClock.now - start
                audioSeconds += utterance.duration
                rate.add(reference: command, hypothesis: heard)
                overall.add(reference: command, hypothesis: heard)
                if heard != command { print("  \(voice): \"\(command)\" → \"\(heard)\"") }
            }
            let realTimeFactor = decoding / .seconds(audioSeconds)
            print("pocketsphinx on flite \(voice): WER \(percent(rate.rate)) over \(rate.referenceWords) words, "
                + "RTF \(realTimeFactor.formatted(.number.precision(.fractionLength(3))))")
        }
        print("pocketsphinx on flite: WER \(percent(overall.rate)) overall")
        #expect(overall.rate <= 0.15, "WER \(percent(overall.rate))")
    }

    @Test func partialsArriveWhileThePersonIsStillSpeaking() async throws {
        let sentence = "please remind me to call the doctor tomorrow morning and then buy some milk on the way home"
        let utterance = try await SpokenUtterance.speak(sentence, voice: .slt)
        let chunks = utterance.chunks
        let audio = UtteranceAudio()
        let partials = Locked<[String]>([])
        let transcription = Task {
            try await Self.transcriber.transcribe(audio, language: "en") { partial in
                partials.withLock { $0.append(partial.text) }
            }
        }
        let half = chunks.count / 2
        for chunk in chunks[..<half] { audio.append(chunk) }
        await audio.consumed(through: half)
        let heardByHalfway = partials.withLock { $0 }
        for chunk in chunks[half...] { audio.append(chunk) }
        audio.finish()
        let final = try await transcription.value

        print("partials: \(partials.withLock { $0 }.count), by halfway: \(heardByHalfway.last ?? "none"); final: \(final)")
        #expect(!heardByHalfway.isEmpty)
        #expect(partials.withLock { $0.count } > heardByHalfway.count)
        #expect(WordErrorRate.of(reference: sentence, hypothesis: final) <= 0.25)
    }

    /// Each chunk taken brings the hypothesis again with how much audio it accounts for, so the
    /// endpointer knows when the words reach a pause.
    @Test func everyChunkTakenTellsHowFarTheWordsReach() async throws {
        let utterance = try await SpokenUtterance.speak("turn on the kitchen lights", voice: .slt)
        let chunks = utterance.chunks
        let audio = UtteranceAudio()
        let partials = Locked<[PartialTranscript]>([])
        let transcription = Task {
            try await Self.transcriber.transcribe(audio, language: "en") { partial in partials.withLock { $0.append(partial) } }
        }
        var fed = 0
        var reached: [Int?] = []
        for chunk in chunks {
            audio.append(chunk)
            fed += chunk.count
            await audio.consumed(through: audio.chunkCount)
            if let last = partials.withLock({ $0.last }) { reached.append(last.coveredSamples) }
        }
        audio.finish()
        _ = try await transcription.value
        let covered = reached.compactMap { $0 }
        #expect(covered.count == reached.count, "a partial without its coverage: \(reached)")
        #expect(covered == covered.sorted() && Set(covered).count == covered.count, "coverage must grow with each chunk: \(covered)")
        #expect(covered.last == fed)
    }

    /// Each partial says where its last word ends: within the utterance, not in the half second of
    /// silence after it, so the endpointer can tell speech that no word accounts for.
    @Test func partialsTellWhereTheirLastWordEnds() async throws {
        let utterance = try await SpokenUtterance.speak("turn on the kitchen lights", voice: .slt)
        let silence = [[Int16]](repeating: [Int16](repeating: 0, count: 160), count: 50)
        let speech = utterance.samples.count
        let audio = UtteranceAudio()
        let partials = Locked<[PartialTranscript]>([])
        let transcription = Task {
            try await Self.transcriber.transcribe(audio, language: "en") { partial in partials.withLock { $0.append(partial) } }
        }
        for chunk in utterance.chunks + silence {
            audio.append(chunk)
            await audio.consumed(through: audio.chunkCount)
        }
        audio.finish()
        _ = try await transcription.value
        let last = try #require(partials.withLock { $0.last })
        let wordsEnd = try #require(last.wordsEndSamples, "\(last)")
        #expect(last.coveredSamples == speech + 50 * 160)
        #expect(wordsEnd > speech / 2 && wordsEnd <= speech, "last word of \"\(last.text)\" ends at \(wordsEnd), the speech at \(speech)")
    }

    @Test(arguments: ["de", "fr-FR", "en-GB", ""])
    func otherLanguagesAreAMisconfiguration(language: String) async throws {
        let error = await #expect(throws: SpeechError.self) {
            try await Self.transcriber.transcribe(UtteranceAudio(chunks: [[0, 0]]), language: language) { _ in }
        }
        #expect(error?.kind == .misconfigured)
        #expect(error?.message.contains("English") == true)
    }

    @Test func aMissingModelSaysHowToInstallIt() async throws {
        var model = PocketSphinxModel.usEnglish
        model.acousticModel = "/nonexistent/en-us"
        let error = await #expect(throws: SpeechError.self) {
            try await EmbeddedTranscriber(model: model).prepare()
        }
        #expect(error?.kind == .misconfigured)
        #expect(error?.message == "pocketsphinx could not load its acoustic model at /nonexistent/en-us: run `make deps` (it installs pocketsphinx with its US English model)")
        #expect(throws: PocketSphinxError.modelMissing(.dictionary, path: "/nonexistent.dict")) {
            var model = PocketSphinxModel.usEnglish
            model.dictionary = "/nonexistent.dict"
            _ = try PocketSphinxDecoder(model: model)
        }
    }

    @Test func aCancelledUtteranceIsAbandonedAndTheNextOneIsHeard() async throws {
        let abandoned = try await SpokenUtterance.speak("turn off the radio in the kitchen", voice: .slt)
        let audio = UtteranceAudio()
        let someChunks = abandoned.chunks.prefix(100)
        for chunk in someChunks { audio.append(chunk) }
        let transcription = Task { try await Self.transcriber.transcribe(audio, language: "en-US") { _ in } }
        await audio.consumed(through: someChunks.count)

        let start = ContinuousClock.now
        transcription.cancel()
        await #expect(throws: CancellationError.self) { try await transcription.value }
        print("cancelled transcription returned after \((ContinuousClock.now - start).formatted(.units(allowed: [.milliseconds])))")
        // The capture would finish the utterance later; nothing is waiting for it any more.
        audio.finish()

        let next = try await SpokenUtterance.speak("turn on the kitchen lights", voice: .slt)
        let heard = try await Self.transcriber.transcribe(next.audio, language: "en-US") { _ in }
        // pocketsphinx's running cepstral mean carries over from the abandoned audio, so allow a word.
        #expect(WordErrorRate.of(reference: next.text, hypothesis: heard) <= 0.2, "heard \"\(heard)\"")
    }

    @Test func anUtteranceCancelledWhileWaitingItsTurnReturnsAtOnce() async throws {
        let first = try await SpokenUtterance.speak("play some music in the living room", voice: .slt)
        let firstAudio = UtteranceAudio()
        let chunks = first.chunks
        for chunk in chunks.prefix(50) { firstAudio.append(chunk) }
        let firstTranscription = Task { try await Self.transcriber.transcribe(firstAudio, language: "en") { _ in } }
        await firstAudio.consumed(through: 50)

        let waiting = Task {
            try await Self.transcriber.transcribe(UtteranceAudio(chunks: chunks), language: "en") { _ in }
        }
        try await Task.sleep(for: .milliseconds(100))
        waiting.cancel()
        await #expect(throws: CancellationError.self) { try await waiting.value }
        #expect(!firstAudio.isFinished, "the queued utterance returned while the first was still being spoken")

        for chunk in chunks.dropFirst(50) { firstAudio.append(chunk) }
        firstAudio.finish()
        let heard = try await firstTranscription.value
        #expect(WordErrorRate.of(reference: first.text, hypothesis: heard) <= 0.2, "heard \"\(heard)\"")
    }

    @Test func utterancesTranscribedAtOnceAreDecodedInTurn() async throws {
        let first = try await SpokenUtterance.speak("turn on the kitchen lights", voice: .slt)
        let second = try await SpokenUtterance.speak("read my new messages", voice: .slt)
        async let heardFirst = Self.transcriber.transcribe(first.audio, language: "en") { _ in }
        async let heardSecond = Self.transcriber.transcribe(second.audio, language: "en") { _ in }
        let (a, b) = try await (heardFirst, heardSecond)
        #expect(WordErrorRate.of(reference: first.text, hypothesis: a) <= 0.2, "heard \"\(a)\"")
        #expect(WordErrorRate.of(reference: second.text, hypothesis: b) <= 0.34, "heard \"\(b)\"")
    }
}

private func percent(_ rate: Double) -> String {
    (rate * 100).formatted(.number.precision(.fractionLength(1))) + " %"
}
