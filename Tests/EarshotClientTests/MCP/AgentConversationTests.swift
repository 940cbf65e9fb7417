@testable import EarshotClient
import EarshotProtocol
import Testing

/// What `earshot mcp` tells the agent before trying, when the daemon cannot hold a conversation.
@Suite struct AgentConversationTests {
    static func status(phase: VoiceState.Phase = .listening, connected: Bool = true, muted: Bool = false, transcription: String = "pocketsphinx (embedded)", speech: String = "flite") -> DaemonStatus {
        DaemonStatus(
            state: VoiceState(phase: phase, turn: 0, muted: muted, controls: []),
            audio: DaemonStatus.Audio(connected: connected),
            backends: [DaemonStatus.Backend(role: "transcription", name: transcription), DaemonStatus.Backend(role: "speech", name: speech)]
        )
    }

    @Test func aDaemonThatCanHearAndSpeakIsReady() {
        #expect(AgentConversation.unableToConverse(Self.status(), speaks: true, listens: true) == nil)
    }

    @Test func eachMissingPartIsSaidInWords() {
        #expect(AgentConversation.unableToConverse(Self.status(connected: false), speaks: true, listens: true)?.hasPrefix("No microphone or speaker") == true)
        #expect(AgentConversation.unableToConverse(Self.status(muted: true), speaks: true, listens: true)?.contains("muted") == true)
        #expect(AgentConversation.unableToConverse(Self.status(muted: true), speaks: true, listens: false) == nil, "speaking alone needs no microphone")
        #expect(AgentConversation.unableToConverse(Self.status(transcription: "none"), speaks: true, listens: true)?.contains("--stt none") == true)
        #expect(AgentConversation.unableToConverse(Self.status(transcription: "none"), speaks: true, listens: false) == nil)
        #expect(AgentConversation.unableToConverse(Self.status(speech: "none"), speaks: true, listens: true)?.contains("--tts none") == true)
        #expect(AgentConversation.unableToConverse(Self.status(speech: "none"), speaks: false, listens: true) == nil)
        #expect(AgentConversation.unableToConverse(Self.status(phase: .hearing), speaks: true, listens: true)?.contains("Call listen") == true)
        #expect(AgentConversation.unableToConverse(Self.status(phase: .hearing), speaks: false, listens: true) == nil)
        #expect(AgentConversation.unableToConverse(Self.status(phase: .speaking), speaks: true, listens: true)?.contains("saying something else") == true)
    }
}
