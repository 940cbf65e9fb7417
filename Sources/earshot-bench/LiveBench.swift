import EarshotHarness
import Foundation

/// `earshot-bench live [--seconds N] [--runs N] [FIXTURE]`: the real daemon listening to a private headless
/// PulseAudio for N seconds while a fixture loops into its virtual microphone and one client
/// takes level events at 60 Hz. Reports capture → client latency of level events, the daemon's
/// CPU (share of one core) and memory. `transcriber` is the daemon's `--stt`: `none` measures the
/// listening path alone; `embedded` adds pocketsphinx decoding every utterance of the fixture.
/// Memory is also taken before anything is said (engines configured, none loaded yet) and,
/// with `unloadAfter`, once the daemon has been that many seconds without speech. With
/// `--runs N`, N runs, each on a fresh sound server, then the median of each goal's figure.
enum LiveBench {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// The `earshotd` built beside this benchmark, once the private PulseAudio it runs on can be had.
    static func daemonBeside() throws -> String {
        guard PulseTestServer.isAvailable else {
            throw Failure(description: "pulseaudio, paplay and pactl are needed (make deps installs them)")
        }
        let daemonBinary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("earshotd").path
        guard FileManager.default.isExecutableFile(atPath: daemonBinary) else {
            throw Failure(description: "earshotd is not built next to earshot-bench (\(daemonBinary))")
        }
        return daemonBinary
    }

    /// The figures a run's goals are about, for the median of several runs.
    struct Figures {
        var quietRatio: Double
        var busyRatio: Double
        var busyRatioAtFloor: Double
        var busyRatioAtNIOFloor: Double
        var quietKilobytes: Int
        var latencyP99: Double
    }

    @discardableResult
    static func run(
        seconds: Double, fixture: String, transcriber: String, synthesizer: String, unloadAfter: Double?, pipeWire: Bool = false
    ) throws -> Figures {
        let daemonBinary = try daemonBeside()
        let sound: any TestSoundServer = pipeWire ? try PipeWireTestServer() : try PulseTestServer()
        defer { sound.stop() }
        let socketPath = sound.directory + "/earshot.sock"
        let unloading = unloadAfter.map { ["--stt-unload-after", String($0), "--tts-unload-after", String($0)] } ?? []
        let daemon = try ChildProcess(
            daemonBinary, ["--socket", socketPath, "--listen", "--stt", transcriber, "--tts", synthesizer] + unloading,
            environment: sound.environment, outputPath: sound.directory + "/earshotd.log"
        )
        defer { _ = daemon.terminate() }
        _ = try waitForSocket(socketPath, timeout: 10)

        // Phase 0: listening to silence; nothing said yet, so no engine has loaded. Past readiness
        // (without systemd the daemon checks for it once a second), when the start-up's pages go back.
        sleep(4)
        let unusedMemory = try memoryKilobytes(of: daemon.pid)

        // Phase 1: listening with no client attached.
        // libpulse's own cost for the same capture, as a floor: parec taking the microphone in
        // 10 ms fragments alongside the daemon.
        // A second parec takes the audio over the socket, as the daemon does (shared memory off).
        var player = try sound.play(fixture)
        let floor = try sound.record(from: "mic")
        let socketFloor = try sound.record(from: "mic", sharedMemory: false)
        let floorStart = try cpuSeconds(of: floor.process.pid)
        let socketFloorStart = try cpuSeconds(of: socketFloor.process.pid)
        let quietThreadsStart = try ThreadTimes.read(pid: daemon.pid)
        let floorUsageStart = try ThreadTimes.process(pid: floor.process.pid)
        let quietCPU = try measureCPU(of: daemon.pid, seconds: seconds) {
            if !player.isRunning { player = try sound.play(fixture) }
            usleep(50_000)
        }
        let quietThreads = try ThreadTimes.read(pid: daemon.pid) - quietThreadsStart
        let floorUsage = try ThreadTimes.process(pid: floor.process.pid) - floorUsageStart
        let floorCPU = (try cpuSeconds(of: floor.process.pid) - floorStart) / seconds * 100
        let socketFloorCPU = (try cpuSeconds(of: socketFloor.process.pid) - socketFloorStart) / seconds * 100
        _ = floor.stop()
        _ = socketFloor.stop()
        let quietMemory = try memoryKilobytes(of: daemon.pid)
        let breakdown = try MemoryBreakdown(pid: daemon.pid)

        // Phase 2: one client taking level events at 60 Hz, parec alongside again.
        let busyFloor = try sound.record(from: "mic")
        let busyFloorStart = try cpuSeconds(of: busyFloor.process.pid)
        let client = try waitForSocket(socketPath, timeout: 10)
        try client.send(#"{"id":1,"cmd":"subscribe","topics":["level","state","speech"],"level_hz":60}"#)
        var latencies: [Double] = []
        var speechEvents = 0
        let busyThreadsStart = try ThreadTimes.read(pid: daemon.pid)
        let busyCPU = try measureCPU(of: daemon.pid, seconds: seconds) {
            if !player.isRunning { player = try sound.play(fixture) }
            guard let line = client.readLine(timeout: 0.5) else { return }
            let received = Date().timeIntervalSince1970
            guard let event = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else { return }
            if event["event"] as? String == "speech" { speechEvents += 1 }
            if event["event"] as? String == "level", let wall = event["wall"] as? Double {
                latencies.append((received - wall) * 1000)
            }
        }
        let busyThreads = try ThreadTimes.read(pid: daemon.pid) - busyThreadsStart
        let busyFloorCPU = (try cpuSeconds(of: busyFloor.process.pid) - busyFloorStart) / seconds * 100
        _ = busyFloor.stop()
        let memory = try memoryKilobytes(of: daemon.pid)
        _ = player.terminate()

        // Phase 3: silence again, past the engines' idle time.
        var idleMemory: (rss: Int, peak: Int)?
        if let unloadAfter {
            usleep(UInt32((unloadAfter + 2) * 1_000_000))
            idleMemory = try memoryKilobytes(of: daemon.pid)
        }
        // The system's part of a level event alone, after the daemon's phases, not beside them.
        let wakeFloor = try WakeFloor.measure(seconds: seconds)
        let nioWakeFloor = try NIOWakeFloor.measure(seconds: seconds)
        latencies.sort()
        func percentile(_ p: Double) -> Double {
            latencies.isEmpty ? .nan : latencies[min(latencies.count - 1, Int(Double(latencies.count) * p))]
        }
        let mb = { (kilobytes: Int) in String(format: "%.1f MB", Double(kilobytes) / 1024) }
        print("Live daemon (--stt \(transcriber) --tts \(synthesizer)): listening to a private \(pipeWire ? "PipeWire" : "PulseAudio"), a fixture looping into its microphone,")
        print("\(String(format: "%.0f", seconds)) s with no client, then \(String(format: "%.0f", seconds)) s with one client taking levels at 60 Hz")
        print("(\(latencies.count) level events, \(speechEvents) speech events)")
        print("| measure | value | goal |")
        print("|---|---|---|")
        print("| capture → level event at client, p50 | \(String(format: "%.2f", percentile(0.5))) ms | |")
        print("| capture → level event at client, p99 | \(String(format: "%.2f", percentile(0.99))) ms | ≤ 15 ms |")
        print("| capture → level event at client, max | \(String(format: "%.2f", latencies.last ?? .nan)) ms | |")
        print("| daemon CPU, share of one core, no client | \(String(format: "%.2f", quietCPU)) % | |")
        print("| floor: parec recording the same microphone in 10 ms fragments, CPU, meanwhile | \(String(format: "%.2f", floorCPU)) % | |")
        // The CPU goals are for listening alone; a transcriber works on every utterance.
        let speechOff = transcriber == "none"
        print("| daemon CPU ÷ parec CPU, no client | \(String(format: "%.1f", quietCPU / floorCPU))× | \(speechOff ? "≤ 1.5×" : "") |")
        print("| floor: parec over the socket (shared memory off, as the daemon), meanwhile | \(String(format: "%.2f", socketFloorCPU)) % | |")
        print("| daemon CPU ÷ that parec's, no client | \(String(format: "%.1f", quietCPU / socketFloorCPU))× | |")
        print("| daemon CPU, share of one core, 60 Hz level client | \(String(format: "%.2f", busyCPU)) % | |")
        print("| floor: parec, meanwhile | \(String(format: "%.2f", busyFloorCPU)) % | |")
        print("| daemon CPU ÷ parec CPU, 60 Hz level client | \(String(format: "%.1f", busyCPU / busyFloorCPU))× | \(speechOff ? "≤ 2.0×" : "") |")
        printThreads(quiet: quietThreads, busy: busyThreads, levelEvents: latencies.count, floor: floorUsage, seconds: seconds)
        let atFloors = printWakeFloor(
            wakeFloor, nio: nioWakeFloor, quiet: quietThreads, busy: busyThreads, levelEvents: latencies.count, seconds: seconds,
            busyCPU: busyCPU, busyFloorCPU: busyFloorCPU
        )
        print("| daemon RSS before anything was said (engines configured, not loaded) | \(mb(unusedMemory.rss)) | |")
        print("| daemon RSS, no client | \(mb(quietMemory.rss)) | \(transcriber == "none" ? "≤ 30 MB" : "≤ 100 MB") |")
        print("| of which the Swift runtime and Foundation (shared libraries) | \(mb(breakdown.swiftRuntime)) | |")
        print("| of which C and C++ libraries (libc, libstdc++, libpulse, speech engines) | \(mb(breakdown.otherLibraries)) | |")
        print("| of which earshotd's own code | \(mb(breakdown.executable)) | |")
        print("| of which heap and stacks (anonymous) | \(mb(breakdown.anonymous)) | |")
        print("| daemon PSS (shared pages divided among their users) | \(mb(breakdown.proportional)) | |")
        print("| daemon unique memory (pages no other process maps) | \(mb(breakdown.unique)) | |")
        print("| daemon RSS at the end (peak) | \(mb(memory.rss)) (\(mb(memory.peak))) | \(transcriber == "none" ? "≤ 30 MB" : "≤ 100 MB") |")
        if let idleMemory, let unloadAfter {
            print("| daemon RSS after \(String(format: "%.0f", unloadAfter + 2)) s of silence (unload after \(String(format: "%g", unloadAfter)) s) | \(mb(idleMemory.rss)) | |")
        }
        return Figures(
            quietRatio: quietCPU / floorCPU, busyRatio: busyCPU / busyFloorCPU, busyRatioAtFloor: atFloors.byHand,
            busyRatioAtNIOFloor: atFloors.throughNIO, quietKilobytes: quietMemory.rss, latencyP99: percentile(0.99)
        )
    }

    /// The median of each figure over several runs, each run's beside it: the machine's other
    /// work moves a single run's CPU figures by tens of percent.
    static func printMedians(_ runs: [Figures], transcriber: String) {
        func median(_ values: [Double]) -> Double {
            let sorted = values.sorted()
            return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
        }
        func row(_ name: String, _ value: (Figures) -> Double, format: String, unit: String, goal: String = "") {
            let values = runs.map(value)
            let each = values.map { String(format: format, $0) }.joined(separator: ", ")
            print("| \(name) | **\(String(format: format, median(values)))\(unit)** (\(each)) | \(goal) |")
        }
        let speechOff = transcriber == "none"
        print("\nMedians of \(runs.count) runs (each run's beside it):")
        print("| measure | median (runs) | goal |")
        print("|---|---|---|")
        row("daemon CPU ÷ parec CPU, no client", \.quietRatio, format: "%.1f", unit: "×", goal: speechOff ? "≤ 1.5×" : "")
        row("daemon CPU ÷ parec CPU, 60 Hz level client", \.busyRatio, format: "%.1f", unit: "×", goal: speechOff ? "≤ 2.0×" : "")
        row("the same, were each event to cost the floor", \.busyRatioAtFloor, format: "%.1f", unit: "×")
        row("the same, were each event to cost the floor through SwiftNIO", \.busyRatioAtNIOFloor, format: "%.1f", unit: "×")
        row("daemon RSS, no client", { Double($0.quietKilobytes) / 1024 }, format: "%.1f", unit: " MB", goal: speechOff ? "≤ 30 MB" : "≤ 100 MB")
        row("capture → level event at client, p99", \.latencyP99, format: "%.2f", unit: " ms", goal: "≤ 15 ms")
    }

    /// Where the daemon's CPU goes in the two phases, per thread role, and what one level event
    /// costs the event loops beside what one 10 ms packet costs `parec`.
    static func printThreads(quiet: ThreadTimes, busy: ThreadTimes, levelEvents: Int, floor: ThreadTimes.Usage, seconds: Double) {
        func percent(_ usage: ThreadTimes.Usage) -> String { String(format: "%.2f %%", usage.seconds / seconds * 100) }
        func perSecond(_ usage: ThreadTimes.Usage) -> String { String(format: "%.0f", Double(usage.slices) / seconds) }
        for (role, name) in [(ThreadTimes.Role.audio, "audio thread"), (.eventLoops, "event loops"), (.other, "other threads")] {
            print("| daemon's \(name): CPU, no client → 60 Hz client (scheduled in, per second) | \(percent(quiet[role])) → \(percent(busy[role])) (\(perSecond(quiet[role])) → \(perSecond(busy[role]))) | |")
        }
        let loopCost = (busy[.eventLoops].seconds - quiet[.eventLoops].seconds) / Double(max(1, levelEvents)) * 1e6
        print("| event loops' CPU per level event the client took | \(String(format: "%.0f", loopCost)) µs | |")
        print("| parec's CPU per 10 ms packet (scheduled in, per second) | \(String(format: "%.0f", floor.seconds / (seconds * 100) * 1e6)) µs (\(perSecond(floor))) | |")
    }

    /// What a level event costs the daemon beside the least it can cost here, by hand
    /// (`WakeFloor`) and through SwiftNIO (`NIOWakeFloor`), and the 60 Hz ratios the daemon would
    /// have if its events cost only that.
    static func printWakeFloor(
        _ floor: WakeFloor.Costs, nio: WakeFloor.Costs, quiet: ThreadTimes, busy: ThreadTimes, levelEvents: Int, seconds: Double,
        busyCPU: Double, busyFloorCPU: Double
    ) -> (byHand: Double, throughNIO: Double) {
        let events = Double(max(1, levelEvents))
        let audio = (busy[.audio].seconds - quiet[.audio].seconds) / events * 1e6
        let loops = (busy[.eventLoops].seconds - quiet[.eventLoops].seconds) / events * 1e6
        let atCost = { (perEvent: Double) in busyCPU - ((audio + loops) - perEvent) * events / seconds / 1e6 * 100 }
        let atFloor = atCost(floor.wakerPerEvent + floor.loopPerLine)
        let atNIOFloor = atCost(nio.wakerPerEvent + nio.loopPerLine)
        let microseconds = { (value: Double) in String(format: "%.0f µs", value) }
        print("| floor: a thread woken by poll every 10 ms waking a loop in poll that writes a line, 60 a second; CPU per line: waker, loop | \(microseconds(floor.wakerPerEvent)), \(microseconds(floor.loopPerLine)) (\(floor.events) lines) | |")
        print("| floor through SwiftNIO: the waker's `execute`, the loop's wake and `writeAndFlush` on a channel; CPU per line: waker, loop | \(microseconds(nio.wakerPerEvent)), \(microseconds(nio.loopPerLine)) (\(nio.events) lines) | |")
        print("| daemon's CPU per level event: audio thread (added), event loops | \(microseconds(audio)), \(microseconds(loops)) | |")
        print("| daemon CPU ÷ parec CPU, 60 Hz level client, were each event to cost the floor | \(String(format: "%.1f", atFloor / busyFloorCPU))× | |")
        print("| the same, were each event to cost the floor through SwiftNIO | \(String(format: "%.1f", atNIOFloor / busyFloorCPU))× | |")
        return (atFloor / busyFloorCPU, atNIOFloor / busyFloorCPU)
    }

    /// CPU used by `pid` while `body` runs repeatedly for `seconds`, as a share of one core.
    static func measureCPU(of pid: pid_t, seconds: Double, _ body: () throws -> Void) throws -> Double {
        let startCPU = try cpuSeconds(of: pid)
        let start = Date()
        while Date().timeIntervalSince(start) < seconds { try body() }
        return (try cpuSeconds(of: pid) - startCPU) / Date().timeIntervalSince(start) * 100
    }

    static func waitForSocket(_ path: String, timeout: TimeInterval) throws -> LineSocket {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if let socket = try? LineSocket(path: path) { return socket }
            usleep(20_000)
        }
        throw Failure(description: "earshotd did not open its socket at \(path)")
    }

    /// Time on the CPU of all of `pid`'s threads, in seconds, from schedstat's nanoseconds: `stat`'s
    /// utime and stime count 10 ms ticks, some thirty in a minute at half a percent of a core.
    static func cpuSeconds(of pid: pid_t) throws -> Double {
        try ThreadTimes.read(pid: pid).totalSeconds
    }

    static func memoryKilobytes(of pid: pid_t) throws -> (rss: Int, peak: Int) {
        let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
        func value(_ key: String) -> Int {
            let line = status.split(separator: "\n").first { $0.hasPrefix(key + ":") } ?? ""
            return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
        }
        return (value("VmRSS"), value("VmHWM"))
    }
}

/// Where a process's resident memory lies, from `/proc/PID/smaps`: which mappings the pages
/// belong to says what could be made smaller and what is shared with every other Swift program.
struct MemoryBreakdown {
    /// Kilobytes resident in the Swift runtime's shared libraries (the standard library,
    /// concurrency, Dispatch, Foundation and its ICU data).
    var swiftRuntime = 0
    /// Kilobytes resident in the program's own executable.
    var executable = 0
    /// Kilobytes resident in other shared libraries (libc, libstdc++, libpulse, speech engines).
    var otherLibraries = 0
    /// Kilobytes of anonymous memory: heap, stacks, the Swift runtime's caches.
    var anonymous = 0
    /// Proportional set size in kilobytes: each shared page divided by the processes mapping it.
    var proportional = 0
    /// Unique set size in kilobytes: the pages no other process maps (what quitting would free).
    var unique = 0

    init(pid: pid_t) throws {
        // /proc files report a size of 0, so read to the end rather than by the file's size.
        guard let file = FileHandle(forReadingAtPath: "/proc/\(pid)/smaps"),
              let data = try file.readToEnd(), let smaps = String(data: data, encoding: .utf8) else {
            throw LiveBench.Failure(description: "unreadable /proc/\(pid)/smaps")
        }
        let executablePath = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/exe")) ?? ""
        var mapping = ""
        for line in smaps.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard let first = fields.first else { continue }
            if first.contains("-"), first.allSatisfy({ $0.isHexDigit || $0 == "-" }) {
                mapping = fields.count > 5 ? fields[5...].joined(separator: " ") : ""
                continue
            }
            guard fields.count >= 2, let kilobytes = Int(fields[1]) else { continue }
            switch first {
            case "Rss:":
                if mapping.isEmpty || mapping.hasPrefix("[") {
                    anonymous += kilobytes
                } else if mapping == executablePath {
                    executable += kilobytes
                } else if mapping.contains("/lib/swift/linux/") {
                    swiftRuntime += kilobytes
                } else if mapping.hasPrefix("/") {
                    otherLibraries += kilobytes
                } else {
                    anonymous += kilobytes
                }
            case "Pss:":
                proportional += kilobytes
            case "Private_Clean:", "Private_Dirty:":
                unique += kilobytes
            default:
                break
            }
        }
    }
}
