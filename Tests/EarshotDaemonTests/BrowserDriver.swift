import EarshotTestSupport
import Foundation

/// Debian's chromium, headless, driven through selenium by `Tests/Peers/browser_driver.py`: one
/// JSON command per line in, one JSON answer per line out.
final class BrowserDriver {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Peers/browser_driver.py").path
    /// `.build/screenshots` of the package.
    static let screenshots = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent(".build/screenshots").path

    /// Whether chromium, its driver and selenium are installed (`make test` installs them).
    static var isAvailable: Bool {
        FileManager.default.isExecutableFile(atPath: "/usr/bin/chromium")
            && FileManager.default.isExecutableFile(atPath: "/usr/bin/chromedriver")
            && SpeechServerProcess.venvHas("selenium")
    }

    private let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    private var buffered = Data()
    let logPath: String

    init(logDirectory: String) throws {
        logPath = logDirectory + "/browser.log"
        _ = FileManager.default.createFile(atPath: logPath, contents: nil)
        process.executableURL = URL(fileURLWithPath: SpeechServerProcess.venvPath + "/bin/python")
        process.arguments = [Self.script]
        var environment = ProcessInfo.processInfo.environment
        environment["EARSHOT_SCREENSHOTS"] = Self.screenshots
        environment["PYTHONUNBUFFERED"] = "1"
        process.environment = environment
        process.standardInput = input
        process.standardOutput = output
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: logPath))
        try process.run()
    }

    deinit {
        try? input.fileHandleForWriting.write(contentsOf: Data(#"{"cmd":"quit"}"#.utf8 + [0x0A]))
        try? input.fileHandleForWriting.close()
        let deadline = Date().addingTimeInterval(10)
        while process.isRunning, Date() < deadline { usleep(50_000) }
        if process.isRunning { process.terminate() }
    }

    /// Sends one command and returns its answer's value; a failed command throws its words.
    @discardableResult
    func send(_ command: [String: Any], patience: TimeInterval = 60) throws -> Any? {
        var line = try JSONSerialization.data(withJSONObject: command)
        line.append(0x0A)
        try input.fileHandleForWriting.write(contentsOf: line)
        let answerLine = try readLine(patience: patience)
        guard let answer = try JSONSerialization.jsonObject(with: answerLine) as? [String: Any] else {
            throw Failure(description: "the driver answered \(String(decoding: answerLine, as: UTF8.self))")
        }
        guard answer["ok"] as? Bool == true else {
            throw Failure(description: "\(command["cmd"] ?? "?") failed: \(answer["error"] ?? "no reason")")
        }
        return answer["value"]
    }

    func open(_ url: String) throws { try send(["cmd": "open", "url": url]) }
    func eval(_ expression: String) throws -> Any? { try send(["cmd": "eval", "expr": expression]) }
    func wait(_ expression: String, timeout: Double = 15) throws { try send(["cmd": "wait", "expr": expression, "timeout": timeout]) }
    func click(_ selector: String) throws { try send(["cmd": "click", "selector": selector]) }
    func select(_ selector: String, text: String) throws { try send(["cmd": "select", "selector": selector, "text": text]) }
    func screenshot(_ name: String) throws { try send(["cmd": "screenshot", "name": name]) }

    /// The page's voice-UI state and connection state.
    func waitFor(state: String, timeout: Double = 15) throws { try wait("document.body.dataset.state === '\(state)'", timeout: timeout) }
    func waitFor(connection: String, timeout: Double = 15) throws {
        try wait("document.body.dataset.connection === '\(connection)'", timeout: timeout)
    }

    /// `expression`'s values every `every` seconds for `seconds`.
    func samples(_ expression: String, seconds: Double, every: Double = 0.03) throws -> [Any] {
        try send(["cmd": "samples", "expr": expression, "seconds": seconds, "every": every], patience: seconds + 30) as? [Any] ?? []
    }

    /// Serves `html` from an origin of the driver's own and returns its URL.
    func serveForeignPage(_ html: String) throws -> String {
        try send(["cmd": "serve", "html": html]) as? String ?? ""
    }

    private func readLine(patience: TimeInterval) throws -> Data {
        let deadline = Date().addingTimeInterval(patience)
        while true {
            if let newline = buffered.firstIndex(of: 0x0A) {
                let line = buffered[buffered.startIndex..<newline]
                buffered.removeSubrange(buffered.startIndex...newline)
                return Data(line)
            }
            guard process.isRunning || !buffered.isEmpty, Date() < deadline else {
                let log = fileText(logPath)
                throw Failure(description: "the browser driver gave no answer; its log:\n\(log.suffix(3000))")
            }
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { usleep(10_000) } else { buffered.append(chunk) }
        }
    }
}
