import EarshotProtocol
import Testing

@Suite struct ProtocolConversationClaimTests {
    @Test func theFirstClaimWinsUntilReleasedOrDisconnected() {
        var claim = ConversationClaim()
        #expect(claim.claim(client: 1, holder: "one") == .granted(holder: "one"))
        #expect(claim.claim(client: 2, holder: "two") == .busy(holder: "one"))
        #expect(claim.claim(client: 1, holder: "one again") == .granted(holder: "one again"))
        #expect(claim.holder == "one again")
        #expect(claim.release(client: 2) == .released(held: false))
        #expect(claim.disconnected(client: 1) == .released(held: true))
        #expect(claim.state == .free)
        #expect(claim.claim(client: 2, holder: "two") == .granted(holder: "two"))
    }

    @Test func busyIsAnErrorNamingTheHolder() {
        let result = ConversationClaim.Action.busy(holder: "claude-code (earshot mcp, pid 7)").result
        #expect(result == .failure(ProtocolError(
            code: .busy, message: "Busy: claude-code (earshot mcp, pid 7) is in a conversation with the person. Try again once it has finished."
        )))
    }
}
