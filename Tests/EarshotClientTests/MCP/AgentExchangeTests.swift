import EarshotClient
import EarshotProtocol
import Testing

/// What a tool call makes of the daemon's events, in the orders the daemon sends them
/// (PROTOCOL.md's examples): the message said, the person's turn heard, and everything the
/// person can do on the way.
@Suite struct AgentExchangeTests {
    static func state(_ phase: VoiceState.Phase, turn: Int, error: String? = nil) -> SocketEvent {
        .state(StateEvent(state: VoiceState(phase: phase, turn: turn, muted: false, controls: [], error: error), time: 0))
    }

    static func speaker(_ phase: SpeakerEvent.Phase, reply: Int = 3, text: String? = nil) -> SocketEvent {
        .speaker(SpeakerEvent(phase: phase, reply: reply, text: text, time: 0))
    }

    static func speech(_ phase: SpeechEvent.Phase, turn: Int) -> SocketEvent {
        .speech(SpeechEvent(turn: turn, phase: phase, time: 0))
    }

    static func final(_ text: String, turn: Int) -> SocketEvent {
        .transcript(TranscriptEvent(turn: turn, text: text, isFinal: true, time: 0))
    }

    /// Feeds `events` and returns every action that was not `.wait`.
    static func run(_ exchange: inout AgentExchange, _ events: [SocketEvent]) -> [AgentExchange.Action] {
        events.map { exchange.eventReceived($0) }.filter { $0 != .wait }
    }

    static let said: [SocketEvent] = [
        state(.thinking, turn: 0), speaker(.start, text: "Which file should I open?"), state(.speaking, turn: 0),
        speaker(.say, text: "The test or the source?"), speaker(.end), state(.listening, turn: 0),
    ]

    @Test func theMessageIsSaidThenThePersonsTurnIsHeard() {
        var exchange = AgentExchange(saying: true, listens: true)
        let actions = Self.run(&exchange, Self.said + [
            Self.speech(.start(audioStart: 1), turn: 1), Self.state(.hearing, turn: 1),
            Self.speech(.end(reason: .silence), turn: 1), Self.state(.thinking, turn: 1),
            Self.final("the test file", turn: 1),
        ])
        #expect(actions == [.startListenTimer, .stopListenTimer, .finish(.heard(transcript: "the test file", after: nil))])
        #expect(AgentExchange.Outcome.heard(transcript: "the test file", after: nil).toolResult
            == MCPToolResult(text: "The person said: \u{201C}the test file\u{201D}", isError: false))
    }

    @Test func anEagerFinalWaitsForTheEndAndAResumedTurnReplacesIt() {
        var exchange = AgentExchange(saying: false, listens: true)
        let actions = Self.run(&exchange, [
            Self.speech(.start(audioStart: 0), turn: 1), Self.state(.hearing, turn: 1), Self.speech(.eagerEnd, turn: 1),
            Self.final("move my", turn: 1), Self.speech(.resumed, turn: 1), Self.state(.hearing, turn: 2),
            Self.speech(.eagerEnd, turn: 2), Self.final("move my dentist appointment", turn: 2),
            Self.speech(.end(reason: .finished), turn: 2), Self.state(.thinking, turn: 2),
        ])
        #expect(actions == [.stopListenTimer, .finish(.heard(transcript: "move my dentist appointment", after: nil))])
    }

    @Test func talkingOverTheMessageIsReportedWithTheWordsSaidSoFar() {
        var exchange = AgentExchange(saying: true, listens: true)
        let actions = Self.run(&exchange, [
            Self.speaker(.start, text: "Here is the long plan."), Self.state(.speaking, turn: 0), Self.speaker(.pause),
            Self.speech(.start(audioStart: 2), turn: 1), Self.state(.hearing, turn: 1), Self.speaker(.stop),
            Self.speech(.end(reason: .silence), turn: 1), Self.state(.thinking, turn: 1), Self.final("stop just do it", turn: 1),
        ])
        let outcome = AgentExchange.Outcome.heard(transcript: "stop just do it", after: .bargedIn(after: "Here is the long plan."))
        #expect(actions == [.finish(outcome)])
        #expect(outcome.toolResult.text
            == "The person interrupted after: \u{201C}Here is the long plan.\u{201D}. Then they said: \u{201C}stop just do it\u{201D}")
    }

    @Test func aStoppedMessageStillListensAndSaysSo() {
        var exchange = AgentExchange(saying: true, listens: true)
        let actions = Self.run(&exchange, [
            Self.speaker(.start, text: "First."), Self.state(.speaking, turn: 4), Self.speaker(.say, text: "Second."),
            Self.speaker(.stop), Self.state(.listening, turn: 4),
            Self.speech(.start(audioStart: 0), turn: 5), Self.state(.hearing, turn: 5), Self.state(.thinking, turn: 5), Self.final("yes", turn: 5),
        ])
        #expect(actions == [.startListenTimer, .stopListenTimer, .finish(.heard(transcript: "yes", after: .stopped(after: "First. Second.")))])
    }

    @Test func speakingAloneEndsWhenTheMessageDoes() {
        var exchange = AgentExchange(saying: true, listens: false)
        #expect(Self.run(&exchange, Self.said) == [.finish(.said(nil))])
        #expect(AgentExchange.Outcome.said(nil).toolResult == MCPToolResult(text: "Said to the end.", isError: false))
        var interrupted = AgentExchange(saying: true, listens: false)
        let actions = Self.run(&interrupted, [Self.speaker(.start, text: "Hello."), Self.state(.hearing, turn: 1), Self.speaker(.stop)])
        #expect(actions == [.finish(.said(.bargedIn(after: "Hello.")))])
    }

    @Test func dismissingEndsTheExchangeWithoutAnError() {
        var exchange = AgentExchange(saying: true, listens: true)
        let actions = Self.run(&exchange, [Self.speaker(.start, text: "Hello."), Self.state(.speaking, turn: 0), Self.state(.idle, turn: 0), Self.speaker(.stop)])
        #expect(actions == [.finish(.dismissed(afterSaying: "Hello."))])
        let result = AgentExchange.Outcome.dismissed(afterSaying: "Hello.").toolResult
        #expect(result.isError == false)
        #expect(result.text == "The person dismissed the conversation after: \u{201C}Hello.\u{201D}. Voice mode is off: they do not want to talk now.")
    }

    @Test func aCancelledTurnIsReportedAndNothingRecognisedListensAgain() {
        var exchange = AgentExchange(saying: false, listens: true)
        let actions = Self.run(&exchange, [
            Self.speech(.start(audioStart: 0), turn: 1), Self.state(.hearing, turn: 1), Self.state(.thinking, turn: 1),
            Self.final("", turn: 1), Self.state(.listening, turn: 1),
            Self.speech(.start(audioStart: 5), turn: 2), Self.state(.hearing, turn: 2), Self.state(.listening, turn: 2),
        ])
        #expect(actions == [.stopListenTimer, .startListenTimer, .stopListenTimer, .finish(.cancelled(after: nil))])
    }

    @Test func listeningWhileThePersonSpeaksHearsTheirTurn() {
        var exchange = AgentExchange(saying: false, listens: true, hearingTurn: 6)
        let actions = Self.run(&exchange, [Self.speech(.end(reason: .silence), turn: 6), Self.state(.thinking, turn: 6), Self.final("open the readme", turn: 6)])
        #expect(actions == [.finish(.heard(transcript: "open the readme", after: nil))])
    }

    @Test func silenceTimesOutAsAToolError() {
        var exchange = AgentExchange(saying: true, listens: true)
        _ = Self.run(&exchange, Self.said)
        guard case .finish(let outcome) = exchange.listenTimedOut(seconds: 5) else {
            Issue.record("no outcome")
            return
        }
        #expect(outcome.toolResult.isError)
        #expect(outcome.toolResult.text.hasPrefix("No speech was heard within 5 s"))
    }

    @Test func failuresOfTheDaemonAreToolErrors() {
        var exchange = AgentExchange(saying: true, listens: true)
        let failed = exchange.eventReceived(.error(ErrorEvent(code: .speechFailed, message: "The voice server is down.", time: 0)))
        #expect(failed == .finish(.failed("The message could not be said: The voice server is down.")))
        var listening = AgentExchange(saying: false, listens: true)
        let actions = Self.run(&listening, [
            Self.speech(.start(audioStart: 0), turn: 1), Self.state(.hearing, turn: 1),
            Self.state(.listening, turn: 1, error: "transcriber_unavailable"),
            .error(ErrorEvent(code: .transcriberUnavailable, message: "The transcriber is away.", time: 0)),
        ])
        #expect(actions == [.stopListenTimer, .finish(.failed("The person's words could not be transcribed: The transcriber is away."))])
    }
}
