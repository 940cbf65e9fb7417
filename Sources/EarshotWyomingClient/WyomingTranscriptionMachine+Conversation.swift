import EarshotWyoming

extension WyomingTranscriptionMachine: WyomingConversationMachine {
    var awaitedAnswer: String { state == .awaitingInfo ? "its info" : "the transcript" }
}
