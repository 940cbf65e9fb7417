import ArgumentParser
import EarshotAudio
import EarshotConversation
import EarshotDaemon
import EarshotEngines
import EarshotSpeech
import Foundation
import Logging

struct ReplayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Run a recording through the listening pipeline and print its events as JSON lines.",
        discussion: """
            The pipeline is the one the daemon runs: voice-activity detection, endpointing, the turn \
            machine in hands-free mode, and the level meter. Each line has "event" and "t" (audio \
            time in seconds). The same file and options always print the same bytes (with a Wyoming \
            server, partial transcripts depend on its timing). See PROTOCOL.md.

            Several files are replayed as one recording cut in pieces, in the order given: a long \
            recording split anywhere (even inside a 10 ms frame) prints the same bytes in pieces \
            as whole.

            With --stt, each utterance is transcribed while it plays (transcript events); replay has \
            no front end to answer, so each reply is declined and the turn returns to listening.

            A conversation script (--script, or NAME.conversation.toml beside NAME.wav) plays the \
            assistant's side: its replies are synthesized and played in audio time, barge-in and \
            all, with speaker events in the log. Without --stt, the end of an utterance stands for \
            its transcript. See PROTOCOL.md.

            With --wake, voice mode waits for that phrase, spotted by pocketsphinx as the daemon's \
            [wake] phrase is (a wake event, then the conversation until --idle-after seconds \
            without speech); not with a conversation script. With --wake-templates, the phrase is \
            heard by the takes `earshot wake enroll` wrote, as the daemon's [wake] templates are \
            (--wake then only names it).
            """
    )

    @Argument(help: ArgumentHelp(
        "A WAV or Ogg Opus file (any rate, mono or stereo); several files are pieces of one recording.",
        discussion: "Pieces are joined in the order given, each converted to 16 kHz mono, into one stream: frames run on across the cuts, so the events are those of the whole recording.",
        valueName: "file"
    ))
    var files: [String]

    @Flag(help: "Also print microphone level events for the voice blob.")
    var levels = false

    @Option(help: "Level events per second of audio, 1 to 60.")
    var levelHz = 30

    @Flag(help: "Pace the replay like a live microphone (one 10 ms frame every 10 ms).")
    var realtime = false

    @Option(help: "Transcribe utterances: none, embedded (pocketsphinx), or a Wyoming server (tcp://HOST:PORT, unix:///PATH).")
    var stt = "none"

    @Option(help: "Language of the speech, for the transcriber (BCP 47).")
    var language = "en-US"

    @Option(help: "A conversation script (TOML) with the assistant's replies. Default: NAME.conversation.toml beside FILE, if there is one.")
    var script: String?

    @Flag(help: "Ignore the conversation script beside FILE.")
    var noScript = false

    @Option(help: "Wait for this wake phrase before taking turns, as the daemon's [wake] phrase does.")
    var wake: String?

    @Option(help: ArgumentHelp("Wait for the phrase enrolled in this directory (`earshot wake enroll`), as the daemon's [wake] templates do.", valueName: "dir"))
    var wakeTemplates: String?

    @Option(help: "The wake phrase's kws_threshold (smaller finds more, and wakes falsely more).")
    var kwsThreshold = KeyphraseSpotter.defaultThreshold

    @Option(help: "Seconds without speech after which the conversation ends and the wake phrase is needed again.")
    var idleAfter = WakeSettings.defaultIdleAfter

    @OptionGroup var endpointing: EndpointingOptions

    func validate() throws {
        if files.isEmpty {
            throw ValidationError("Give the recording to replay (or its pieces, in order).")
        }
        if wake != nil || wakeTemplates != nil, script != nil {
            throw ValidationError("--wake and --wake-templates do not work with a conversation script (--script); replay without it.")
        }
        if script != nil, noScript {
            throw ValidationError("--script and --no-script contradict each other; give one.")
        }
        guard (1...60).contains(levelHz) else {
            throw ValidationError("--level-hz must be between 1 and 60 (got \(levelHz)).")
        }
        do {
            _ = try BackendChoice(parsing: stt, role: .speechToText)
        } catch {
            throw ValidationError("--stt: \(error.description)")
        }
    }

    func run() async throws {
        let clip = try AudioInput.read(pieces: files)
        var configuration = VoicePipeline<SpectralVAD>.Configuration(
            endpointer: endpointing.configuration,
            levelMeter: LevelMeter.Configuration(readingsPerSecond: levelHz),
            emitsLevels: levels,
            transcribes: true
        )
        configuration.endpointer.language = language
        let wakeSettings = try self.wakeSettings()
        configuration.wake = wakeSettings?.gate
        var wakeListening: WakeListening?
        if let wakeSettings {
            do throws(SpeechError) {
                let spotter = try wakeSettings.makeSpotter()
                wakeListening = WakeListening(spotter: spotter)
            } catch {
                throw ValidationError("\(wakeTemplates == nil ? "--wake" : "--wake-templates"): \(error.message)")
            }
        }
        let output = StandardOutput()
        let choice = try BackendChoice(parsing: stt, role: .speechToText)
        // An OpenAI-compatible server's key comes from OPENAI_API_KEY here; the daemon also reads a key file.
        let options = try BackendOptions.loading(model: nil, keyFile: nil, unloadAfter: nil)
        if wakeListening == nil, let script = try conversationScript() {
            var replay = ScriptedReplay(
                replay: Replay(detector: SpectralVAD(), configuration: configuration), script: script,
                synthesizer: EmbeddedSynthesizer(),
                transcriber: SpeechBackends.transcriber(choice, options: options, logger: Logger(label: "earshot.stt")), language: language
            )
            try await replay.run(clip, realtime: realtime, write: output.write)
            return
        }
        if let transcriber = SpeechBackends.transcriber(choice, options: options, logger: Logger(label: "earshot.stt")) {
            // As the daemon does: with the embedded engine each turn's transcript is finalised at its eager end.
            configuration.preparesEagerly = transcriber.decodesSnapshotsAlongside
            var replay = ReplayTranscription(
                replay: Replay(detector: SpectralVAD(), configuration: configuration), transcriber: transcriber, language: language,
                wake: wakeListening
            )
            try await replay.run(clip, realtime: realtime, write: output.write)
            return
        }
        configuration.transcribes = false
        var replay = Replay(detector: SpectralVAD(), configuration: configuration)
        if realtime {
            let clock = ContinuousClock()
            let start = clock.now
            for frame in clip.frames {
                try await clock.sleep(until: start.advanced(by: .milliseconds(10 * (frame.index + 1))))
                replay.feed(frame, wake: wakeListening)
                replay.flush(to: output.write)
            }
            replay.end()
            replay.flush(to: output.write)
        } else {
            replay.run(clip, wake: wakeListening, write: output.write)
        }
    }

    /// `--wake` and `--wake-templates` as the daemon takes `[wake]`; a phrase it cannot spot, or
    /// templates it cannot read, are refused in words.
    func wakeSettings() throws -> WakeSettings? {
        if let wakeTemplates {
            do {
                return try WakeSettings(templates: wakeTemplates, phrase: wake, idleAfter: idleAfter)
            } catch {
                throw ValidationError("--wake-templates: \(error.message)")
            }
        }
        guard let wake else { return nil }
        do {
            return try WakeSettings(phrase: wake, threshold: kwsThreshold, idleAfter: idleAfter)
        } catch {
            throw ValidationError("--wake: \(error.message)")
        }
    }
}

// MARK: The conversation script

extension ReplayCommand {
    /// The conversation script to replay with: `--script`, else the one beside the recording if
    /// there is one, never with `--no-script`. A script that cannot be used gets its problems on
    /// stderr, one a line with file and line, and exit status 2.
    func conversationScript() throws -> ConversationScript? {
        guard !noScript else { return nil }
        let path: String
        if let script {
            path = script
        } else {
            let companion = ConversationScript.companionPath(forRecording: files[0])
            guard FileManager.default.fileExists(atPath: companion) else { return nil }
            path = companion
        }
        let catalog = VoiceCatalog.load()
        do {
            return try ConversationScript.read(path: path, voices: catalog.voices, defaultVoice: catalog.defaultVoice)
        } catch {
            FileHandle.standardError.write(Data("\(error.description)\n".utf8))
            throw ExitCode(2)
        }
    }
}
