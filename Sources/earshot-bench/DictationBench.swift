import EarshotHarness
import Foundation

/// `earshot-bench dictation [--turns N] [--wayland]`: how soon a spoken turn is in the window.
/// The real daemon (embedded transcription) on a private PulseAudio hears a fixture N times;
/// `earshot dictate` types each turn with xdotool into a Tk text window on a private Xvfb (with
/// `--wayland`: with wtype into a GTK text view in a headless sway), whose text is read back as
/// it changes.
///
/// end → window = the first typed character in the window − the `speech` `end` event (the daemon's wall clock);
/// transcript → typed and typing as `earshot dictate` prints them for each turn.
enum DictationBench {
    static let fixture = "Tests/Fixtures/speech/one_request_slt.wav"

    static func run(turns: Int, wayland: Bool) throws {
        guard let earshot = BuiltProduct.url("earshot") else { throw LiveBench.Failure(description: "earshot is not built next to earshot-bench") }
        let signalSources = ChildGuard.install()
        defer { withExtendedLifetime(signalSources) {} }
        let window: any TextWindow = wayland ? try WaylandTextWindow() : try X11TextWindow()
        let typer = wayland ? "wtype" : "xdotool"
        let session = try SpeechSession(daemonArguments: ["--stt", "embedded"], topics: ["speech"])
        let log = session.sound.directory + "/dictate.log"
        let dictation = try ChildProcess(
            earshot.path, ["dictate", "--socket", session.sound.directory + "/earshot.sock"], environment: window.environment, outputPath: log
        )
        ChildGuard.register(dictation.pid)
        defer {
            dictation.terminate()
            ChildGuard.unregister(dictation.pid)
        }
        let started = ContinuousClock.now + .seconds(15)
        while !fileText(log).contains("Dictating with"), dictation.isRunning, ContinuousClock.now < started { usleep(10_000) }
        var endToWindow: [Double] = []
        for _ in 0..<turns {
            let before = window.text
            let player = try session.sound.play(fixture)
            guard let end = session.wait(timeout: 30, for: { $0["event"] as? String == "speech" && $0["phase"] as? String == "end" }),
                let endWall = end["wall"] as? Double
            else { throw LiveBench.Failure(description: "no end of speech: " + fileText(log)) }
            let deadline = Date().addingTimeInterval(10)
            while window.text == before, Date() < deadline { usleep(2_000) }
            guard window.text != before else { throw LiveBench.Failure(description: "nothing was typed: " + fileText(log)) }
            endToWindow.append((Date().timeIntervalSince1970 - endWall) * 1000)
            _ = player.wait()
            usleep(300_000)
        }
        let printed = fileText(log).components(separatedBy: "\n").filter { $0.hasPrefix("typed turn ") }
        let afterTranscript = printed.compactMap { number(in: $0, before: " ms after its transcript") }
        let typing = printed.compactMap { number(in: $0, before: " ms typing") }
        print("Dictation: \(turns) turns of \(fixture) heard by the live daemon (--stt embedded), typed by earshot dictate with \(typer) into \(wayland ? "a GTK window in headless sway" : "a Tk window on Xvfb")")
        print("| measure | median | max |")
        print("|---|---|---|")
        for (name, values) in [("end of speech (`end` event) → first character in the window", endToWindow), ("final transcript → typed (earshot dictate)", afterTranscript), ("typing (\(typer), one turn)", typing)] {
            let sorted = values.sorted()
            let median = sorted.isEmpty ? Double.nan : sorted[sorted.count / 2]
            print("| \(name) | \(String(format: "%.0f", median)) ms | \(String(format: "%.0f", sorted.last ?? .nan)) ms |")
        }
        print("Window text: \(window.text)")
    }

    /// The number just before `suffix` in `line`.
    static func number(in line: String, before suffix: String) -> Double? {
        guard let range = line.range(of: suffix) else { return nil }
        let digits = line[..<range.lowerBound].reversed().prefix { $0.isNumber || $0 == "." }
        return Double(String(digits.reversed()))
    }
}
