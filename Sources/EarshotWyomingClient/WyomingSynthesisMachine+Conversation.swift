import EarshotWyoming

extension WyomingSynthesisMachine: WyomingConversationMachine {
    var awaitedAnswer: String { state == .awaitingInfo ? "its info" : "the audio" }
}
