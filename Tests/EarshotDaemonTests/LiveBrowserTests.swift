import EarshotTestSupport
import Foundation
import Testing

/// The reference page in a real browser (Debian's chromium, headless), against the real daemon on
/// the private PulseAudio with its web front door on: everything it draws comes from events.
/// Each test saves the states it reaches under `.build/screenshots/`.
@Suite(
    .serialized,
    .tags(.live),
    .enabled(
        if: (TestPeers.pulseAudio && BrowserDriver.isAvailable) || TestPeers.requireAll,
        "needs pulseaudio, chromium, chromium-driver and selenium (make test installs them)"
    )
)
struct LiveBrowserTests {
    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/speech/one_request_slt.wav").path
    static let longReply = Array(repeating: "This reply goes on for a while so that it can be stopped.", count: 8).joined(separator: " ")

    struct Web {
        let session: LiveSession
        let port: Int
        let arguments: [String]
        var token: String {
            (try? String(contentsOfFile: session.directory + "/web-token", encoding: .utf8))?
                .trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        }
        var page: String { "http://127.0.0.1:\(port)/#token=\(token)" }
    }

    static func start(_ extra: [String]) throws -> Web {
        let port = try SocketProbe.freeLoopbackPort()
        let arguments = ["--listen", "--web", "127.0.0.1:\(port)"] + extra
        return Web(session: try LiveSession(arguments: arguments), port: port, arguments: arguments)
    }

    static func scale() -> String { "Number(document.getElementById('blob').dataset.scale)" }

    @Test func thePageDrawsTheConversationFromEvents() async throws {
        try await onDedicatedThread {
            let web = try Self.start(["--stt", "embedded", "--tts", "embedded", "--reply-timeout", "3"])
            let browser = try BrowserDriver(logDirectory: web.session.directory)
            try browser.open(web.page)
            try browser.waitFor(connection: "connected")
            try browser.waitFor(state: "listening")
            #expect(try browser.eval("location.hash") as? String == "", "the token stayed in the address bar")
            try browser.screenshot("listening")
            let resting = try browser.samples(Self.scale(), seconds: 1).compactMap { $0 as? Double }

            // Said into the microphone: listening → hearing → thinking → listening (no reply comes).
            let player = try web.session.sound.play(Self.fixture)
            try browser.waitFor(state: "hearing")
            try browser.screenshot("hearing")
            let hearing = try browser.samples("[document.body.dataset.state, \(Self.scale())]", seconds: 1.5)
            try browser.waitFor(state: "thinking")
            try browser.screenshot("thinking")
            try browser.waitFor(state: "listening", timeout: 20)
            _ = player.wait()
            let loudest = hearing.compactMap { ($0 as? [Any])?.last as? Double }.max() ?? 0
            #expect(loudest > (resting.max() ?? 1) * 1.1, "the blob did not grow with the voice: resting \(resting.max() ?? 0), hearing \(loudest)")
            #expect(try browser.eval("document.getElementById('captions').textContent.toLowerCase()").map { "\($0)" }?.contains("kitchen") == true)

            // A reply: the stop square appears while it plays, and stops it.
            let client = try LineSocket(path: web.session.daemon.socketPath)
            var ignored: [[String: Any]] = []
            let spoken = try client.request(#"{"id":"say","cmd":"speak","text":"\#(Self.longReply)"}"#, events: &ignored)
            #expect(spoken["ok"] as? Bool == true, "\(spoken)")
            try browser.waitFor(state: "speaking")
            try browser.wait("getComputedStyle(document.getElementById('stop')).display !== 'none' && !document.getElementById('stop').hidden")
            try browser.screenshot("speaking")
            try browser.click("#stop")
            try browser.waitFor(state: "listening", timeout: 5)

            // The voice selector changes the daemon's voice.
            try browser.select("#voice", text: "Sky")
            let deadline = Date().addingTimeInterval(10)
            var voice: String?
            while Date() < deadline {
                voice = (try web.session.status()["backends"] as? [String: Any])?["voice"] as? String
                if voice == "sky" { break }
                usleep(100_000)
            }
            #expect(voice == "sky")
            try browser.screenshot("voice-sky")
        }
    }

    @Test func thePageReconnectsWhenTheDaemonComesBack() async throws {
        try await onDedicatedThread {
            let web = try Self.start([])
            let browser = try BrowserDriver(logDirectory: web.session.directory)
            try browser.open(web.page)
            try browser.waitFor(connection: "connected")
            kill(web.session.daemon.pid, SIGKILL)
            try browser.waitFor(connection: "reconnecting")
            try browser.screenshot("reconnecting")
            #expect(try browser.eval("document.body.textContent").map { "\($0)" }?.contains("Reconnecting") == true)
            let restarted = try DaemonProcess(directory: web.session.directory, environment: web.session.sound.environment, arguments: web.arguments)
            defer { restarted.terminate() }
            try browser.waitFor(connection: "connected", timeout: 40)
            try browser.waitFor(state: "listening")
            try browser.screenshot("reconnected")

            // The sound server gone: the daemon stays, and the page says so in words.
            web.session.sound.stop()
            try browser.wait("document.body.textContent.includes('The sound server is gone')", timeout: 20)
            try browser.screenshot("sound-server-lost")
        }
    }

    @Test func theWebSocketKeepsTheSocketsLimitsAndErrors() async throws {
        try await onDedicatedThread {
            let web = try Self.start([])
            let browser = try BrowserDriver(logDirectory: web.session.directory)
            try browser.open(web.page)
            try browser.waitFor(connection: "connected")
            // A second socket from the page's own origin, as another front end would open one.
            _ = try browser.eval("""
                (() => {
                  window.answers = [];
                  const socket = new WebSocket('ws://127.0.0.1:\(web.port)/socket?token=\(web.token)');
                  socket.onmessage = (message) => window.answers.push(message.data);
                  socket.onopen = () => {
                    socket.send('x'.repeat(70000));
                    socket.send('{"id":1,"cmd":"frobnicate"}');
                    socket.send('{"id":2,"cmd":"status"');
                    socket.send('{"id":3,"cmd":"voices"}');
                  };
                  return true;
                })()
                """)
            try browser.wait("window.answers.length >= 4")
            let answers = try browser.eval("window.answers").flatMap { $0 as? [String] } ?? []
            #expect(answers.count == 4, "\(answers)")
            #expect(answers.first?.contains(#""code":"line_too_long""#) == true, "\(answers)")
            #expect(answers.dropFirst().first?.hasPrefix(#"{"id":1,"ok":false,"error":{"code":"unknown_cmd""#) == true, "\(answers)")
            #expect(answers.dropFirst(2).first?.contains(#""ok":false"#) == true, "\(answers)")
            #expect(answers.last?.hasPrefix(#"{"id":3,"ok":true"#) == true, "\(answers)")
            #expect(answers.allSatisfy { !$0.hasSuffix("\n") }, "a message carries one line, without its newline")
        }
    }

    @Test func earshotOpenPrintsThePagesAddressWithTheToken() async throws {
        try await onDedicatedThread {
            let web = try Self.start([])
            let opened = try BuiltProduct.run("earshot", ["open", "--print-only", "--socket", web.session.daemon.socketPath])
            #expect(opened.status == 0, "\(opened.stderr)")
            #expect(opened.stdoutText == web.page + "\n", "\(opened.stdoutText)")
            let off = try LiveSession(arguments: ["--listen"])
            let refused = try BuiltProduct.run("earshot", ["open", "--print-only", "--socket", off.daemon.socketPath])
            #expect(refused.status == 1)
            #expect(refused.stderr.contains("The daemon serves no web page: start earshotd with --web 127.0.0.1:8765"), "\(refused.stderr)")
        }
    }

    @Test func aWrongTokenAForeignOriginAndAForeignHostAreRefused() async throws {
        try await onDedicatedThread {
            let web = try Self.start([])
            let browser = try BrowserDriver(logDirectory: web.session.directory)
            try browser.open("http://127.0.0.1:\(web.port)/#token=\(String(repeating: "0", count: 64))")
            try browser.waitFor(connection: "refused")
            try browser.screenshot("refused-token")

            let foreign = try browser.serveForeignPage("""
                <!doctype html><script>
                window.outcome = 'pending';
                const socket = new WebSocket('ws://127.0.0.1:\(web.port)/socket?token=\(web.token)');
                socket.onopen = () => { window.outcome = 'open'; };
                socket.onerror = () => { if (window.outcome === 'pending') window.outcome = 'refused'; };
                </script>
                """)
            try browser.open(foreign)
            try browser.wait("window.outcome !== 'pending'")
            #expect(try browser.eval("window.outcome") as? String == "refused")

            try browser.open("http://evil.example:\(web.port)/")
            let body = try browser.eval("document.body.textContent").map { "\($0)" } ?? ""
            #expect(body.contains("Refused: the Host header \"evil.example:\(web.port)\""), "\(body)")

            let log = web.session.daemon.log
            #expect(log.contains("Refused a web request: a missing or wrong token"))
            #expect(log.contains("Refused a web request: the origin \(foreign.dropLast()) is not allowed"))
            #expect(log.contains("Refused a web request: the Host header \"evil.example:\(web.port)\""))
            #expect(!log.contains(web.token), "the token was logged")
        }
    }
}
