import EarshotAudio
import EarshotHarness
import Foundation

/// `earshot-bench soak --minutes N`: the release daemon with embedded transcription and speech
/// and a responder that answers, on a private PulseAudio, hears N minutes of looped fixtures
/// while a client takes every event. Its resident memory and open descriptors are sampled each
/// minute, at a quiet moment (`listening` for a second: no turn, responder or reply under way;
/// a minute with none in 45 s is sampled anyway, marked `*`, its descriptors not judged);
/// after the warm-up (the first two minutes: the loop's first round, 71 s, has then been heard
/// whole, so every engine, voice and path has run once) descriptors must stay within ± 0 of
/// minute 2's sample, and memory must not grow in every minute to over 2 MB above it (a leak)
/// nor step over 8 MB above it (an allocator's new arena steps once by a few MB). Then the same audio is replayed whole and in pieces, which
/// must print the same bytes. Returns whether all held.
enum SoakBench {
    struct Sample {
        var minute: Int
        var residentKilobytes: Int
        var descriptors: Int
        var quiet: Bool
        var tally: SoakListener.Tally
        var counters: [String: Int]
    }

    static let memoryTolerance = 2 * 1024
    static let memoryStepTolerance = 8 * 1024
    static let steadyGrowthPerMinute = 256
    static let descriptorTolerance = 0

    static func run(minutes: Int, fixtures: String, outputDirectory: String, pieces: Int) throws -> Bool {
        guard minutes > warmUpMinutes + 1 else {
            throw LiveBench.Failure(description: "a soak needs \(warmUpMinutes + 2) minutes at least: \(warmUpMinutes) to warm up, two to compare")
        }
        guard PulseTestServer.isAvailable else {
            throw LiveBench.Failure(description: "pulseaudio, paplay and pactl are needed (make deps installs them)")
        }
        let binaries = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let daemonBinary = binaries.appendingPathComponent("earshotd").path
        let earshot = binaries.appendingPathComponent("earshot").path
        for binary in [daemonBinary, earshot] where !FileManager.default.isExecutableFile(atPath: binary) {
            throw LiveBench.Failure(description: "\(binary) is not built next to earshot-bench")
        }
        let fixturesPath = URL(fileURLWithPath: fixtures).standardizedFileURL.path
        try? FileManager.default.removeItem(atPath: outputDirectory)
        try FileManager.default.createDirectory(atPath: outputDirectory, withIntermediateDirectories: true)
        let loopPath = outputDirectory + "/soak-loop.wav"
        let piecePaths = try {
            let clip = try SoakLoop.make(minutes: Double(minutes), fixturesDirectory: fixturesPath)
            try WAVFile.write(clip, to: loopPath)
            return try SoakLoop.writePieces(of: try WAVFile.read(loopPath), count: pieces, beside: loopPath)
        }()

        let daemonArguments = [
            "--listen", "--stt", "embedded", "--tts", "embedded",
            "--responder", fixturesPath + "/conversation/responder.sh",
        ]
        print("Soak: \(minutes) min of looped fixtures (\(SoakLoop.fixtures.count) files, \(Int(SoakLoop.pauseAfterEach)) s of silence after each)")
        print("into earshotd \(daemonArguments.joined(separator: " ")) on a private PulseAudio,")
        print("one client subscribed to every event (levels at 60 Hz); memory and descriptors sampled each minute at a quiet moment.")
        print("")
        let samples = try live(minutes: minutes, loopPath: loopPath, daemonBinary: daemonBinary, arguments: daemonArguments, outputDirectory: outputDirectory)
        var failures = judge(samples)

        print("")
        print("Replay of the same \(minutes) min (`earshot replay \(SoakReplay.options.joined(separator: " "))`), whole and in \(pieces) pieces cut inside frames:")
        let comparison = try SoakReplay.compare(whole: loopPath, pieces: piecePaths, earshot: earshot, outputDirectory: outputDirectory)
        if comparison.identical {
            print("identical: \(comparison.lines) events, \(comparison.bytes) bytes (both replays took \(String(format: "%.0f", comparison.seconds)) s)")
        } else if let difference = comparison.firstDifference {
            print("DIFFERENT from line \(difference.line):\n  whole:  \(difference.whole)\n  pieces: \(difference.pieces)")
            failures.append("the replay in pieces differs from the whole replay at line \(difference.line)")
        }
        print("")
        if failures.isEmpty {
            print("Soak passed: memory and descriptors flat after the warm-up, the replays identical.")
        } else {
            print("Soak FAILED:")
            for failure in failures { print("  - \(failure)") }
        }
        return failures.isEmpty
    }

    /// The live part: the daemon, the client, the loop played once, a sample each minute.
    private static func live(minutes: Int, loopPath: String, daemonBinary: String, arguments: [String], outputDirectory: String) throws -> [Sample] {
        let sound = try PulseTestServer()
        defer { sound.stop() }
        let socketPath = sound.directory + "/earshot.sock"
        let daemon = try ChildProcess(
            daemonBinary, ["--socket", socketPath] + arguments,
            environment: sound.environment, outputPath: outputDirectory + "/earshotd.log"
        )
        defer { _ = daemon.terminate() }
        _ = try LiveBench.waitForSocket(socketPath, timeout: 10)
        let listener = try SoakListener(socketPath: socketPath)
        defer { listener.stop() }
        sleep(1)
        var samples = [try sample(minute: 0, pid: daemon.pid, socketPath: socketPath, listener: listener)]
        printHeader()
        printRow(samples[0], baseline: nil)
        let player = try sound.play(loopPath)
        defer { _ = player.terminate() }
        let start = Date()
        for minute in 1...minutes {
            let due = start.addingTimeInterval(Double(minute) * 60)
            while Date() < due { usleep(100_000) }
            // A long answer, a barge-in and the next request can keep it busy for half a minute.
            let quietBy = Date().addingTimeInterval(45)
            while !listener.isQuiet(for: 1), Date() < quietBy { usleep(50_000) }
            guard daemon.isRunning else { throw LiveBench.Failure(description: "earshotd exited during the soak (see \(outputDirectory)/earshotd.log)") }
            samples.append(try sample(minute: minute, pid: daemon.pid, socketPath: socketPath, listener: listener))
            printRow(samples[minute], baseline: minute > warmUpMinutes ? samples[warmUpMinutes] : nil)
        }
        return samples
    }

    /// The loop's first round takes 71 s: by minute 2 everything has run once.
    static let warmUpMinutes = 2

    /// Memory and descriptors first (the status request's own connection is not counted), then
    /// the daemon's counters.
    private static func sample(minute: Int, pid: pid_t, socketPath: String, listener: SoakListener) throws -> Sample {
        let quiet = listener.isQuiet(for: 1)
        let memory = try LiveBench.memoryKilobytes(of: pid)
        let descriptors = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd").count
        let tally = listener.tally.withLock { $0 }
        let client = try LineSocket(path: socketPath)
        var ignored: [[String: Any]] = []
        let status = try client.request(#"{"id":"soak-status","cmd":"status"}"#, events: &ignored)
        let counters = (status["counters"] as? [String: Any] ?? [:]).compactMapValues { $0 as? Int }
        return Sample(minute: minute, residentKilobytes: memory.rss, descriptors: descriptors, quiet: quiet, tally: tally, counters: counters)
    }

    private static func judge(_ samples: [Sample]) -> [String] {
        let minutes = samples.count - 1
        let baseline = samples[warmUpMinutes]
        var failures: [String] = []
        failures += judgeMemory(samples.dropFirst(warmUpMinutes))
        for sample in samples.dropFirst(warmUpMinutes + 1) {
            // A responder under way holds pipes: descriptors are compared only at quiet moments.
            if sample.quiet, baseline.quiet, abs(sample.descriptors - baseline.descriptors) > descriptorTolerance {
                failures.append("open descriptors at minute \(sample.minute): \(sample.descriptors), against \(baseline.descriptors) at minute \(baseline.minute)")
            }
            if !sample.quiet { print("(minute \(sample.minute) was sampled without a quiet second: a turn or reply was under way; its descriptors are not judged)") }
        }
        let last = samples[minutes]
        if last.tally.finalTranscripts == 0 { failures.append("no final transcript arrived: the soak never exercised transcription") }
        if last.tally.repliesStarted == 0 { failures.append("no reply was spoken: the soak never exercised speech") }
        if last.tally.malformed > 0 { failures.append("the client received \(last.tally.malformed) lines that are not JSON objects") }
        for counter in ["holes", "overflows"] where (last.counters[counter] ?? 0) > 0 {
            failures.append("capture lost audio: \(counter) = \(last.counters[counter] ?? 0)")
        }
        return failures
    }

    /// A leak grows minute after minute; an allocator taking a new arena steps once and stays.
    /// So memory fails when it ends over the tolerance above the warm-up's sample having grown
    /// in every minute since, or when any minute is far above it.
    private static func judgeMemory(_ samples: ArraySlice<Sample>) -> [String] {
        guard let baseline = samples.first, let last = samples.last, samples.count > 1 else { return [] }
        let rises = zip(samples, samples.dropFirst()).map { $1.residentKilobytes - $0.residentKilobytes }
        let grown = last.residentKilobytes - baseline.residentKilobytes
        if grown > memoryTolerance, rises.allSatisfy({ $0 > steadyGrowthPerMinute }) {
            return ["resident memory grew in every minute after the warm-up: \(megabytes(last.residentKilobytes)) MB at minute \(last.minute), \(signed(megabytes(grown))) MB from minute \(baseline.minute)'s (± 2 MB allowed)"]
        }
        if let peak = samples.max(by: { $0.residentKilobytes < $1.residentKilobytes }),
           peak.residentKilobytes - baseline.residentKilobytes > memoryStepTolerance {
            return ["resident memory at minute \(peak.minute) is \(megabytes(peak.residentKilobytes)) MB, \(signed(megabytes(peak.residentKilobytes - baseline.residentKilobytes))) MB from minute \(baseline.minute)'s (one step of 8 MB at most allowed)"]
        }
        return []
    }

    private static func printHeader() {
        print("| minute | RSS | Δ RSS | open fds | turns | final transcripts | replies spoken | replies cut short | frames | holes | overflows | dropped levels | errors |")
        print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|")
    }

    private static func printRow(_ sample: Sample, baseline: Sample?) {
        let delta = baseline.map { signed(megabytes(sample.residentKilobytes - $0.residentKilobytes)) + " MB" } ?? ""
        let errors = sample.tally.errors.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
        let counters = ["frames", "holes", "overflows", "dropped_levels"].map { sample.counters[$0].map(String.init) ?? "?" }
        let cells = [
            "\(sample.minute)\(sample.quiet ? "" : "*")", "\(megabytes(sample.residentKilobytes)) MB", delta, "\(sample.descriptors)",
            "\(sample.tally.turns)", "\(sample.tally.finalTranscripts)", "\(sample.tally.repliesStarted)", "\(sample.tally.repliesCut)",
        ] + counters + [errors]
        print("| " + cells.joined(separator: " | ") + " |")
        fflush(nil)
    }

    private static func megabytes(_ kilobytes: Int) -> String { String(format: "%.1f", Double(kilobytes) / 1024) }
    private static func signed(_ text: String) -> String { text.hasPrefix("-") ? text : "+" + text }
}
