import EarshotBase
import EarshotDaemon
import Logging
import Testing

@Suite struct JournalLogHandlerTests {
    /// The lines a handler wrote, collected in memory.
    final class Lines: Sendable {
        private let collected = Locked<[String]>([])
        var all: [String] { collected.withLock { $0 } }
        func append(_ line: String) { collected.withLock { $0.append(line) } }
    }

    static func logger(style: JournalLineStyle, level: Logger.Level = .info, into lines: Lines) -> Logger {
        Logger(label: "earshotd.audio") { label in
            JournalLogHandler(label: label, level: level, style: style, clock: { "2025-11-21 14:02:07.123" }, sink: lines.append)
        }
    }

    @Test func underJournaldEachLineStartsWithItsPriorityAndHasNoTime() {
        let lines = Lines()
        let logger = Self.logger(style: .journal, into: lines)
        logger.error("The sound server went away", metadata: ["while": "capturing"])
        logger.warning("Echo cancellation is unavailable")
        logger.info("Connected", metadata: ["source": "mic", "sink": "speaker"])
        logger.notice("Reloaded")
        logger.critical("Out of memory")
        #expect(lines.all == [
            "<3>earshotd.audio: The sound server went away while=capturing\n",
            "<4>earshotd.audio: Echo cancellation is unavailable\n",
            "<6>earshotd.audio: Connected sink=speaker source=mic\n",
            "<5>earshotd.audio: Reloaded\n",
            "<2>earshotd.audio: Out of memory\n",
        ])
    }

    @Test func elsewhereALineHasTheTimeAndTheLevelInWords() {
        let lines = Lines()
        let logger = Self.logger(style: .plain(colour: false), into: lines)
        logger.warning("Voice file skipped", metadata: ["file": "/home/me/my voice.toml"])
        #expect(lines.all == [#"2025-11-21 14:02:07.123 warning earshotd.audio: Voice file skipped file="/home/me/my voice.toml""# + "\n"])
    }

    @Test func onATerminalTheLevelIsColoured() {
        let lines = Lines()
        let logger = Self.logger(style: .plain(colour: true), into: lines)
        logger.error("Failed")
        #expect(lines.all == ["2025-11-21 14:02:07.123 \u{1B}[31merror\u{1B}[0m earshotd.audio: Failed\n"])
    }

    @Test func debugLinesAppearOnlyWhenAskedFor() {
        let lines = Lines()
        Self.logger(style: .journal, into: lines).debug("Frame timing")
        #expect(lines.all.isEmpty)
        Self.logger(style: .journal, level: .debug, into: lines).debug("Frame timing")
        #expect(lines.all == ["<7>earshotd.audio: Frame timing\n"])
    }

    @Test func aMessageWithLineBreaksStaysOneLine() {
        let lines = Lines()
        Self.logger(style: .journal, into: lines).error("first\nsecond", metadata: ["stderr": "a\nb"])
        #expect(lines.all == [#"<3>earshotd.audio: first\nsecond stderr=a\nb"# + "\n"])
    }

    @Test func theJournalStyleIsChosenOnlyForTheJournalsOwnStream() {
        let journal = ["JOURNAL_STREAM": "8:12345"]
        #expect(JournalLineStyle.detect(isTerminal: false, environment: journal, stderrIdentity: (8, 12345)) == .journal)
        // Inherited by a process whose stderr went elsewhere: not the journal.
        #expect(JournalLineStyle.detect(isTerminal: false, environment: journal, stderrIdentity: (8, 999)) == .plain(colour: false))
        #expect(JournalLineStyle.detect(isTerminal: false, environment: [:], stderrIdentity: (8, 12345)) == .plain(colour: false))
        #expect(JournalLineStyle.detect(isTerminal: true, environment: [:], stderrIdentity: nil) == .plain(colour: true))
        #expect(JournalLineStyle.detect(isTerminal: true, environment: ["NO_COLOR": "1"], stderrIdentity: nil) == .plain(colour: false))
        #expect(JournalLineStyle.detect(isTerminal: true, environment: ["TERM": "dumb"], stderrIdentity: nil) == .plain(colour: false))
    }

    @Test func theTimestampIsLocalTimeToTheMillisecond() {
        let stamp = JournalLogHandler.localTimestamp()
        #expect(stamp.wholeMatch(of: /\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}/) != nil, "\(stamp)")
    }
}
