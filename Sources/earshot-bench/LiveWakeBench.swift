import EarshotHarness
import Foundation

/// `earshot-bench live --wake PHRASE [--seconds N] [SPEECH]`: what voice mode costs while it waits
/// for the wake phrase. The real daemon (`--wake PHRASE`, no transcriber, no speech) listens to a
/// private headless PulseAudio, first in silence, then while `SPEECH` (speech without the phrase)
/// loops into its virtual microphone; in each phase `parec` records the same microphone in 10 ms
/// fragments alongside it, so the ratio of the two CPU figures is taken under the same load.
extension LiveBench {
    static func runWaiting(seconds: Double, phrase: String, speech: String) throws {
        let daemonBinary = try daemonBeside()
        let sound = try PulseTestServer()
        defer { sound.stop() }
        let socketPath = sound.directory + "/earshot.sock"
        let logPath = sound.directory + "/earshotd.log"
        let daemon = try ChildProcess(
            daemonBinary, ["--socket", socketPath, "--listen", "--stt", "none", "--tts", "none", "--wake", phrase],
            environment: sound.environment, outputPath: logPath
        )
        defer { _ = daemon.terminate() }
        _ = try waitForSocket(socketPath, timeout: 10)
        // The spotter loads on its own queue as the daemon starts.
        sleep(2)

        let silence = try sideBySide(daemon: daemon.pid, sound: sound, seconds: seconds) {}
        let silenceMemory = try memoryKilobytes(of: daemon.pid)

        var player = try sound.play(speech)
        let speaking = try sideBySide(daemon: daemon.pid, sound: sound, seconds: seconds) {
            if !player.isRunning { player = try sound.play(speech) }
        }
        _ = player.terminate()
        let memory = try memoryKilobytes(of: daemon.pid)
        let log = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
        let wakes = log.components(separatedBy: "Wake phrase heard").count - 1

        let duration = String(format: "%.0f", seconds)
        print("Live daemon waiting for the wake phrase \"\(phrase)\" (--stt none --tts none): \(duration) s of silence,")
        print("then \(duration) s of \(speech) looping into its microphone (\(wakes) wakes heard)")
        print("| measure | value | goal |")
        print("|---|---|---|")
        print("| daemon CPU, share of one core, silence | \(String(format: "%.2f", silence.daemon)) % | |")
        print("| floor: parec recording the same microphone in 10 ms fragments, meanwhile | \(String(format: "%.2f", silence.parec)) % | |")
        print("| daemon CPU ÷ parec CPU, silence | \(String(format: "%.1f", silence.daemon / silence.parec))× | ≤ 1.5× |")
        print("| floor: parec over the socket (shared memory off, as the daemon), meanwhile | \(String(format: "%.2f", silence.parecOverSocket)) % | |")
        print("| daemon CPU ÷ that parec's, silence | \(String(format: "%.1f", silence.daemon / silence.parecOverSocket))× | |")
        print("| daemon CPU, share of one core, speech without the phrase | \(String(format: "%.2f", speaking.daemon)) % | |")
        print("| floor: parec, meanwhile | \(String(format: "%.2f", speaking.parec)) % | |")
        print("| daemon CPU ÷ parec CPU, speech without the phrase | \(String(format: "%.1f", speaking.daemon / speaking.parec))× | |")
        print("| daemon RSS after the silence | \(String(format: "%.1f MB", Double(silenceMemory.rss) / 1024)) | |")
        print("| daemon RSS at the end (peak) | \(String(format: "%.1f MB (%.1f MB)", Double(memory.rss) / 1024, Double(memory.peak) / 1024)) | |")
    }

    /// The daemon's and two fresh `parec`s' CPU (shares of one core) over the same `seconds`, the
    /// three recording the same microphone, one parec through shared memory and one over the
    /// socket as the daemon takes it; `body` runs every 50 ms meanwhile.
    static func sideBySide(
        daemon: pid_t, sound: PulseTestServer, seconds: Double, _ body: () throws -> Void
    ) throws -> (daemon: Double, parec: Double, parecOverSocket: Double) {
        let floor = try sound.record(from: "mic")
        defer { _ = floor.stop() }
        let socketFloor = try sound.record(from: "mic", sharedMemory: false)
        defer { _ = socketFloor.stop() }
        let floorStart = try cpuSeconds(of: floor.process.pid)
        let socketFloorStart = try cpuSeconds(of: socketFloor.process.pid)
        let start = Date()
        let daemonCPU = try measureCPU(of: daemon, seconds: seconds) {
            try body()
            usleep(50_000)
        }
        let elapsed = Date().timeIntervalSince(start)
        let parecCPU = (try cpuSeconds(of: floor.process.pid) - floorStart) / elapsed * 100
        let socketCPU = (try cpuSeconds(of: socketFloor.process.pid) - socketFloorStart) / elapsed * 100
        return (daemonCPU, parecCPU, socketCPU)
    }
}
