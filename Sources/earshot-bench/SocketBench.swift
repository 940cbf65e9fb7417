import EarshotBase
import EarshotHarness
import Foundation

/// `earshot-bench sockets [--requests N] [--clients N]`: the socket at scale. The release daemon
/// listens to a fixture looping into a private PulseAudio's microphone while N clients take
/// levels at 60 Hz (one of them never reads) and one more sends N random and mutated requests
/// as fast as the daemon answers them (`RequestMutator`, seed 14, the live test's flood made
/// long). Prints the flood's rate, what the audio path and the clients went through.
enum SocketBench {
    static func run(requests: Int, clients: Int, fixture: String) throws {
        guard PulseTestServer.isAvailable else {
            throw LiveBench.Failure(description: "pulseaudio, paplay and pactl are needed (make deps installs them)")
        }
        let daemonBinary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("earshotd").path
        let sound = try PulseTestServer()
        defer { sound.stop() }
        let socketPath = sound.directory + "/earshot.sock"
        let daemon = try ChildProcess(
            daemonBinary, ["--socket", socketPath, "--listen", "--stt", "none", "--tts", "none"],
            environment: sound.environment, outputPath: sound.directory + "/earshotd.log"
        )
        defer { _ = daemon.terminate() }
        _ = try LiveBench.waitForSocket(socketPath, timeout: 10)
        let crowd = try SocketCrowd(socketPath: socketPath, readers: clients - 1, stalled: 1, levelHz: 60)
        let before = try counters(socketPath)
        let start = Date()

        let playing = Locked(true)
        let playerDone = DispatchSemaphore(value: 0)
        Thread {
            while playing.withLock({ $0 }) {
                guard let player = try? sound.play(fixture) else { break }
                while player.isRunning, playing.withLock({ $0 }) { usleep(50_000) }
                _ = player.terminate()
            }
            playerDone.signal()
        }.start()
        let flood = try RequestFlood.run(socketPath: socketPath, requests: requests, seed: 14)

        // The stalled client goes after its buffers fill and 10 s of audio pass.
        var stalledAfter: Double?
        let patience = Date().addingTimeInterval(60)
        while Date() < patience {
            if try counters(socketPath)["disconnected_slow_clients"] ?? 0 > 0 {
                stalledAfter = Date().timeIntervalSince(start)
                break
            }
            usleep(500_000)
        }
        playing.withLock { $0 = false }
        playerDone.wait()
        usleep(1_500_000)
        let after = try counters(socketPath)
        let wall = Date().timeIntervalSince(start)
        let stalledClosed = crowd.stalledClientsClosed(timeout: 5)
        let readers = crowd.finish()
        let reference = readers.first?.states ?? []
        let alike = readers.filter { $0.states == reference && !$0.closed && $0.malformed == 0 }.count
        let frames = (after["frames"] ?? 0) - (before["frames"] ?? 0)
        let log = (try? String(contentsOfFile: sound.directory + "/earshotd.log", encoding: .utf8)) ?? ""

        print("Socket at scale: \(clients) clients subscribed to levels at 60 Hz (1 never reads), 1 more sending \(requests) random and mutated requests")
        print("(seed 14), `earshotd --listen --stt none --tts none` hearing \(fixture) in a loop on a private PulseAudio.")
        print("| measure | value |")
        print("|---|---|")
        print("| requests answered | \(flood.responses) of \(flood.requests)\(flood.failure.map { " (\($0))" } ?? "") |")
        print("| flood time, rate | \(String(format: "%.1f", flood.seconds)) s, \(Int(flood.requestsPerSecond)) requests/s |")
        print("| bytes sent | \(flood.bytesSent) |")
        print("| answers ok / errors | \(flood.succeeded) / \(flood.responses - flood.succeeded) |")
        let codes = flood.errorCodes.sorted { $0.value > $1.value }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
        print("| error codes | \(codes) |")
        print("| malformed answers | \(flood.malformed.count) |")
        print("| frames captured / wall time × 100 | \(frames) / \(Int(wall * 100)) |")
        print("| holes, overflows | \(after["holes"] ?? -1), \(after["overflows"] ?? -1) |")
        print("| longest wait between capture fragments | \(after["longest_fragment_gap_ms"] ?? -1) ms |")
        print("| level events dropped (the stalled client's) | \(after["dropped_levels"] ?? -1) |")
        print("| stalled client disconnected | \(stalledAfter.map { String(format: "after %.1f s", $0) } ?? "no") (closed: \(stalledClosed)), logged: \(log.contains("Disconnecting a client that stopped reading events")) |")
        print("| reading clients that saw the same state changes, none dropped | \(alike) of \(readers.count) (\(reference.count) state changes each) |")
        print("| levels received per reading client, min / max | \(readers.map(\.levels).min() ?? 0) / \(readers.map(\.levels).max() ?? 0) |")
        print("| daemon RSS at the end | \(String(format: "%.1f", Double(try LiveBench.memoryKilobytes(of: daemon.pid).rss) / 1024)) MB |")
    }

    static func counters(_ socketPath: String) throws -> [String: Int] {
        var ignored: [[String: Any]] = []
        let status = try LineSocket(path: socketPath).request(#"{"id":"bench","cmd":"status"}"#, events: &ignored)
        return (status["counters"] as? [String: Any] ?? [:]).compactMapValues { $0 as? Int }
    }
}
