import EarshotSpeech
import Testing

@Suite struct VoiceFileTests {
    @Test func readsEveryField() throws {
        let voice = try VoiceFile.parse(VoiceFileCase.valid, file: VoiceFileCase.file)
        #expect(voice == Voice(
            id: "sky", displayName: "Sky", summary: "Bright and inquisitive", language: "en-US",
            flite: .init(voice: "slt", durationStretch: 0.9, pitchHz: 208),
            espeak: .init(voice: "en-us+f4", rate: 188, pitch: 72),
            wyoming: .init(voice: "en_US-lessac-medium")
        ))
    }

    @Test func optionalSettingsTakeTheModelsDefaults() throws {
        let text = """
            name = "Mine"
            description = "Plain"
            language = "de-DE"
            [espeak-ng]
            voice = "de"
            [wyoming]
            voice = "de_DE-thorsten-medium"
            speaker = "3"
            """
        let voice = try VoiceFile.parse(text, file: "/home/me/.config/earshot/voices/My-Voice.toml")
        #expect(voice.id == "my-voice")
        #expect(voice.flite == nil)
        #expect(voice.espeak == Voice.Espeak(voice: "de"))
        #expect(voice.wyoming == Voice.Wyoming(voice: "de_DE-thorsten-medium", speaker: "3"))
    }

    @Test func openAISectionNamesTheServersVoiceWithModelAndRateDefaulted() throws {
        let text = """
            name = "Mine"
            description = "Plain"
            language = "en-GB"
            [openai]
            voice = "af_heart"
            """
        let voice = try VoiceFile.parse(text, file: "mine.toml")
        #expect(voice.openAI == Voice.OpenAI(voice: "af_heart", model: "tts-1", sampleRate: 24_000))
        let explicit = try VoiceFile.parse(text + "\nmodel = \"kokoro\"\nsample_rate = 22050\n", file: "mine.toml")
        #expect(explicit.openAI == Voice.OpenAI(voice: "af_heart", model: "kokoro", sampleRate: 22_050))
    }

    @Test func openAISampleRateOutsideWhatPlaysIsAProblem() throws {
        let text = "name = \"A\"\ndescription = \"B\"\nlanguage = \"en\"\n[openai]\nvoice = \"nova\"\nsample_rate = 1000\n"
        let error = try #require(throws: VoiceFileError.self) { try VoiceFile.parse(text, file: "a.toml") }
        #expect(error.problems == [VoiceProblem(
            file: "a.toml", key: "openai.sample_rate", kind: .outOfRange(allowed: "within 8000...48000", found: "1000")
        )])
    }

    @Test func everyBundledVoiceNamesAnOpenAIVoice() throws {
        let directory = try #require(VoiceCatalog.bundledDirectory(), "the checkout's voices/ directory")
        for name in ["breeze", "cove", "ember", "juniper", "sky"] {
            let voice = try VoiceFile.read(path: directory + "/\(name).toml")
            #expect(voice.openAI?.model == "tts-1", "\(name)")
            #expect(["alloy", "ash", "ballad", "coral", "echo", "fable", "nova", "onyx", "sage", "shimmer", "verse"]
                .contains(voice.openAI?.voice ?? ""), "\(name)")
        }
    }

    @Test func integersAreAcceptedWhereFractionsAre() throws {
        let text = VoiceFileCase.valid.replacingOccurrences(of: "duration_stretch = 0.9", with: "duration_stretch = 1")
        #expect(try VoiceFile.parse(text, file: VoiceFileCase.file).flite?.durationStretch == 1)
    }

    @Test(arguments: VoiceFileCase.table)
    func reportsTheProblem(_ row: VoiceFileCase) throws {
        let error = try #require(throws: VoiceFileError.self) { try VoiceFile.parse(row.text, file: VoiceFileCase.file) }
        #expect(error.problems.map(\.description) == row.messages)
    }

    @Test func invalidTOMLNamesTheLine() throws {
        let text = VoiceFileCase.valid.replacingOccurrences(of: "pitch = 72", with: "pitch = = 72")
        let error = try #require(throws: VoiceFileError.self) { try VoiceFile.parse(text, file: VoiceFileCase.file) }
        let problem = try #require(error.problems.first)
        #expect(error.problems.count == 1)
        #expect(problem.line == 13)
        #expect(problem.description.hasPrefix("voices/sky.toml:13: invalid TOML: "), "\(problem)")
    }

    @Test func problemsNameTheKeyAtFault() throws {
        let text = VoiceFileCase.valid.replacingOccurrences(of: "rate_wpm = 188", with: "rate_wpm = 9000")
        let error = try #require(throws: VoiceFileError.self) { try VoiceFile.parse(text, file: VoiceFileCase.file) }
        #expect(error.problems == [VoiceProblem(
            file: "voices/sky.toml", key: "espeak-ng.rate_wpm", kind: .outOfRange(allowed: "within 80...450", found: "9000")
        )])
    }

    @Test func aMissingFileIsUnreadable() throws {
        let error = try #require(throws: VoiceFileError.self) { try VoiceFile.read(path: "/nonexistent/voices/x.toml") }
        #expect(error.description == "/nonexistent/voices/x.toml: cannot read: no such file")
    }
}
