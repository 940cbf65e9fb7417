import EarshotAudio
import EarshotConversation
import EarshotEngines
import Foundation

/// `earshot-bench replay DIR|FILE...`: how many times faster than real time the whole listening
/// pipeline runs on recordings (decoding measured apart), printed as a table; `live`, `speech`,
/// `voice`, `wer`, `mcp`, `sockets`, `dictation` and `soak` measure the daemon and its engines (see each one's file);
/// `demo` (`make demo`) shows a whole conversation on a private PulseAudio.
@main
struct EarshotBench {
    static func main() throws {
        let arguments = Array(CommandLine.arguments.dropFirst())
        if arguments.first == "demo" {
            DemoCommand.run(Array(arguments.dropFirst()))
            return
        }
        if arguments.first == "live" {
            var rest = arguments.dropFirst()
            var seconds = 60.0
            var transcriber = "none"
            var synthesizer = "none"
            var unloadAfter: Double?
            var wake: String?
            var pipeWire = false
            var runs = 1
            while rest.count >= 2, let option = rest.first, ["--seconds", "--stt", "--tts", "--unload-after", "--wake", "--server", "--runs"].contains(option) {
                let value = rest[rest.startIndex + 1]
                if option == "--seconds", let number = Double(value) { seconds = number }
                if option == "--stt" { transcriber = value }
                if option == "--tts" { synthesizer = value }
                if option == "--unload-after" { unloadAfter = Double(value) }
                if option == "--wake" { wake = value }
                if option == "--server" { pipeWire = value == "pipewire" }
                if option == "--runs", let number = Int(value), number >= 1 { runs = number }
                rest = rest.dropFirst(2)
            }
            let fixture = rest.first ?? "Tests/Fixtures/endpointer/two_phrases_long_pause.wav"
            do {
                if let wake {
                    try LiveBench.runWaiting(seconds: seconds, phrase: wake, speech: fixture)
                    return
                }
                var figures: [LiveBench.Figures] = []
                for run in 1...runs {
                    if runs > 1 { print("\nRun \(run) of \(runs):") }
                    figures.append(try LiveBench.run(
                        seconds: seconds, fixture: fixture, transcriber: transcriber, synthesizer: synthesizer, unloadAfter: unloadAfter,
                        pipeWire: pipeWire
                    ))
                }
                if runs > 1 { LiveBench.printMedians(figures, transcriber: transcriber) }
            } catch {
                print("earshot-bench live: \(error)")
                exit(1)
            }
            return
        }
        if arguments.first == "dictation" {
            var rest = Array(arguments.dropFirst())
            let wayland = rest.contains("--wayland")
            rest.removeAll { $0 == "--wayland" }
            let turns = rest.count == 2 && rest[0] == "--turns" ? Int(rest[1]) ?? 0 : (rest.isEmpty ? 10 : 0)
            guard turns >= 1 else {
                print("usage: earshot-bench dictation [--turns N] [--wayland]")
                exit(2)
            }
            do {
                try DictationBench.run(turns: turns, wayland: wayland)
            } catch {
                print("earshot-bench dictation: \(error)")
                exit(1)
            }
            return
        }
        if arguments.first == "sockets" {
            var rest = arguments.dropFirst()
            var requests = 1_000_000
            var clients = 64
            while rest.count >= 2, let option = rest.first, ["--requests", "--clients"].contains(option) {
                let value = Int(rest[rest.startIndex + 1]) ?? -1
                if option == "--requests" { requests = value } else { clients = value }
                rest = rest.dropFirst(2)
            }
            guard requests >= 1, clients >= 2, rest.count <= 1 else {
                print("usage: earshot-bench sockets [--requests N] [--clients N (2 or more)] [FIXTURE]")
                exit(2)
            }
            do {
                try SocketBench.run(
                    requests: requests, clients: clients, fixture: rest.first ?? "Tests/Fixtures/endpointer/two_phrases_long_pause.wav"
                )
            } catch {
                print("earshot-bench sockets: \(error)")
                exit(1)
            }
            return
        }
        if arguments.first == "soak" {
            var rest = arguments.dropFirst()
            var minutes = 60
            var fixtures = "Tests/Fixtures"
            var output = ".build/soak"
            var pieces = 5
            while rest.count >= 2, let option = rest.first, ["--minutes", "--fixtures", "--output", "--pieces"].contains(option) {
                let value = rest[rest.startIndex + 1]
                switch option {
                case "--minutes": minutes = Int(value) ?? -1
                case "--fixtures": fixtures = value
                case "--output": output = value
                default: pieces = Int(value) ?? -1
                }
                rest = rest.dropFirst(2)
            }
            guard rest.isEmpty, minutes > SoakBench.warmUpMinutes, pieces >= 2 else {
                print("usage: earshot-bench soak [--minutes N (3 or more)] [--pieces K (2 or more)] [--fixtures DIR] [--output DIR]")
                exit(2)
            }
            do {
                exit(try SoakBench.run(minutes: minutes, fixtures: fixtures, outputDirectory: output, pieces: pieces) ? 0 : 1)
            } catch {
                print("earshot-bench soak: \(error)")
                exit(1)
            }
        }
        if arguments.first == "voice" {
            var rest = arguments.dropFirst()
            var eagerness: String?
            var assistant: VoiceToVoiceBench.AssistantPace?
            var unknownOption = false
            while !unknownOption, rest.count >= 2, let option = rest.first, option.hasPrefix("--") {
                let value = rest[rest.startIndex + 1]
                switch option {
                case "--eagerness": eagerness = value
                case "--assistant-first-token-ms": assistant = .init(firstTokenMilliseconds: Double(value) ?? 0, tokensPerSecond: assistant?.tokensPerSecond ?? 0)
                case "--assistant-tokens-per-second": assistant = .init(firstTokenMilliseconds: assistant?.firstTokenMilliseconds ?? 0, tokensPerSecond: Double(value) ?? 0)
                default: unknownOption = true
                }
                rest = rest.dropFirst(2)
            }
            guard !unknownOption, rest.count <= 1 else {
                print("usage: earshot-bench voice [--eagerness low|medium|high] [--assistant-first-token-ms MS] [--assistant-tokens-per-second N] [TURN_SET]")
                exit(2)
            }
            do {
                try VoiceToVoiceBench.run(set: rest.first ?? "../shared/fixtures/turns-dev-2", eagerness: eagerness, assistant: assistant)
            } catch {
                print("earshot-bench voice: \(error)")
                exit(1)
            }
            return
        }
        if arguments.first == "mcp" {
            var rest = arguments.dropFirst()
            var rounds = 10
            if rest.first == "--rounds", rest.count >= 2 {
                rounds = Int(rest[rest.startIndex + 1]) ?? -1
                rest = rest.dropFirst(2)
            }
            guard rounds >= 1, rest.count <= 1 else {
                print("usage: earshot-bench mcp [--rounds N] [FIXTURE]")
                exit(2)
            }
            do {
                try MCPBench.run(rounds: rounds, fixture: rest.first ?? "Tests/Fixtures/speech/one_request_slt.wav")
            } catch {
                print("earshot-bench mcp: \(error)")
                exit(1)
            }
            return
        }
        if arguments.first == "wake" {
            var rest = arguments.dropFirst()
            var threshold = KeyphraseSpotter.defaultThreshold
            var tune = false
            var onTuningVoices = false
            var templates = false
            var givenThreshold: Double?
            if rest.first == "--write-fixture", rest.count == 2 {
                do {
                    try WakeBench.writeFixture(to: rest[rest.startIndex + 1])
                } catch {
                    print("earshot-bench wake: \(error)")
                    exit(1)
                }
                return
            }
            while let option = rest.first, ["--threshold", "--tune", "--tuning-voices", "--templates"].contains(option) {
                if option == "--tune" || option == "--tuning-voices" || option == "--templates" {
                    if option == "--tune" { tune = true } else if option == "--templates" { templates = true } else { onTuningVoices = true }
                    rest = rest.dropFirst()
                    continue
                }
                guard rest.count >= 2, let value = Double(rest[rest.startIndex + 1]), value > 0, value < 1 else {
                    print("usage: earshot-bench wake [--templates] [--threshold X (0 to 1)] [--tune | --tuning-voices] [FIXTURES]")
                    exit(2)
                }
                givenThreshold = value
                rest = rest.dropFirst(2)
            }
            do {
                let fixtures = rest.first ?? "../shared/fixtures"
                if templates {
                    let distance = givenThreshold.map(Float.init)
                    try WakeTemplateBench.run(threshold: distance, tune: tune, fixtures: fixtures)
                    return
                }
                threshold = givenThreshold ?? threshold
                try WakeBench.run(threshold: threshold, tune: tune, onTuningVoices: onTuningVoices, fixtures: fixtures)
            } catch {
                print("earshot-bench wake: \(error)")
                exit(1)
            }
            return
        }
        if arguments.first == "wer" {
            let directory = arguments.dropFirst().first ?? "../shared/fixtures/vad-dev"
            do {
                try TranscriptionBench.run(directory: directory)
            } catch {
                print("earshot-bench wer: \(error)")
                exit(1)
            }
            return
        }
        if arguments.first == "speech" {
            let rest = Array(arguments.dropFirst())
            var repeats = 10
            if !rest.isEmpty {
                guard rest.count == 2, rest[0] == "--repeats", let value = Int(rest[1]), value >= 1 else {
                    print("usage: earshot-bench speech [--repeats N]")
                    exit(2)
                }
                repeats = value
            }
            do {
                try SpeechBench.run(repeats: repeats)
            } catch {
                print("earshot-bench speech: \(error)")
                exit(1)
            }
            return
        }
        guard arguments.first == "replay", arguments.count >= 2 else {
            print("usage: earshot-bench replay DIR|FILE...\n       earshot-bench live [--seconds N] [--runs N] [--stt none|embedded|URI] [--tts none|embedded|URI] [--unload-after N] [--wake PHRASE] [--server pulseaudio|pipewire] [FIXTURE]\n       earshot-bench speech [--repeats N]\n       earshot-bench voice [--eagerness E] [--assistant-first-token-ms MS] [--assistant-tokens-per-second N] [TURN_SET]\n       earshot-bench sockets [--requests N] [--clients N] [FIXTURE]\n       earshot-bench soak [--minutes N] [--pieces K] [--fixtures DIR] [--output DIR]\n       earshot-bench wer [VAD_DEV]\n       earshot-bench mcp [--rounds N] [FIXTURE]\n       earshot-bench dictation [--turns N] [--wayland]\n       earshot-bench wake [--templates] [--threshold X] [--tune | --tuning-voices] [FIXTURES]\n       earshot-bench demo [RECORDING] [RESPONDER]")
            exit(2)
        }
        let files = arguments.dropFirst().flatMap(wavFiles(in:))
        guard !files.isEmpty else {
            print("earshot-bench: no .wav files in \(arguments.dropFirst().joined(separator: " "))")
            exit(1)
        }
        var clips: [AudioClip] = []
        let decodeSeconds = try measure {
            clips = try files.map { path throws(AudioFileError) in try WAVFile.read(path) }
        }
        let audioSeconds = clips.reduce(0) { $0 + $1.duration }
        let rounds = 5
        var outputBytes = 0
        var pipelineTimes: [Double] = []
        for _ in 0..<rounds {
            outputBytes = 0
            pipelineTimes.append(measure {
                for clip in clips {
                    var replay = Replay(detector: SpectralVAD(), configuration: .init(
                        levelMeter: LevelMeter.Configuration(readingsPerSecond: 60),
                        emitsLevels: true
                    ))
                    replay.run(clip) { outputBytes += $0.count }
                }
            })
        }
        let best = pipelineTimes.min()!
        let median = pipelineTimes.sorted()[rounds / 2]
        print("Replay throughput: \(files.count) files, \(format(audioSeconds, 1)) s of audio, levels at 60 Hz, JSON rendered")
        print("| stage | seconds | × real time |")
        print("|---|---|---|")
        print("| WAV decode | \(format(decodeSeconds, 4)) | \(format(audioSeconds / decodeSeconds, 0)) |")
        print("| pipeline, median of \(rounds) | \(format(median, 4)) | \(format(audioSeconds / median, 0)) |")
        print("| pipeline, best of \(rounds) | \(format(best, 4)) | \(format(audioSeconds / best, 0)) |")
        print("(\(outputBytes) bytes of events per round)")
    }

    static func wavFiles(in path: String) -> [String] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return [] }
        guard isDirectory.boolValue else { return [path] }
        let names = (FileManager.default.subpaths(atPath: path) ?? []).filter { $0.hasSuffix(".wav") }.sorted()
        return names.map { path + "/" + $0 }
    }

    static func measure(_ body: () throws -> Void) rethrows -> Double {
        let clock = ContinuousClock()
        let elapsed = try clock.measure(body)
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
    }

    static func format(_ value: Double, _ decimals: Int) -> String {
        String(format: "%.\(decimals)f", value)
    }
}
