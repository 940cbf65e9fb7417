import EarshotBase
import EarshotServer
import Testing

/// `claim` and `unclaim` over a real socket: one connection holds the conversation, another is
/// told it is busy, and a connection that closes gives its claim back.
@Suite struct ServerClaimTests {
    @Test func aSecondConnectionIsBusyUntilTheFirstReleases() async throws {
        try await ServerHarness.withServer { _, path in
            let first = try SocketTestClient(path: path)
            let second = try SocketTestClient(path: path)
            let granted = try await first.request(#"{"id":1,"cmd":"claim","holder":"agent one"}"#)
            #expect(granted == ["id": 1, "ok": true, "holder": "agent one"])
            let busy = try await second.request(#"{"id":2,"cmd":"claim","holder":"agent two"}"#)
            #expect(busy["ok"] == false)
            #expect(busy["error"]?["code"] == "busy")
            #expect(busy["error"]?["message"] == "Busy: agent one is in a conversation with the person. Try again once it has finished.")
            let again = try await first.request(#"{"id":3,"cmd":"claim","holder":"agent one"}"#)
            #expect(again["ok"] == true, "the holder may claim again")
            let notHers = try await second.request(#"{"id":4,"cmd":"unclaim"}"#)
            #expect(notHers == ["id": 4, "ok": true, "released": false])
            let released = try await first.request(#"{"id":5,"cmd":"unclaim"}"#)
            #expect(released == ["id": 5, "ok": true, "released": true])
            let now = try await second.request(#"{"id":6,"cmd":"claim","holder":"agent two"}"#)
            #expect(now["ok"] == true)
        }
    }

    @Test func aClosedConnectionGivesItsClaimBack() async throws {
        try await ServerHarness.withServer { _, path in
            var first: SocketTestClient? = try SocketTestClient(path: path)
            _ = try await first?.request(#"{"id":1,"cmd":"claim","holder":"agent one"}"#)
            first = nil
            let second = try SocketTestClient(path: path)
            // The close reaches the server's event loop a little after the client lets go.
            var answer: JSONValue = nil
            for _ in 0..<200 {
                answer = try await second.request(#"{"id":2,"cmd":"claim","holder":"agent two"}"#)
                if answer["ok"] == true { break }
                try await Task.sleep(for: .milliseconds(10))
            }
            #expect(answer["ok"] == true, "\(answer)")
        }
    }

    @Test func aClaimNeedsAHolder() async throws {
        try await ServerHarness.withServer { _, path in
            let client = try SocketTestClient(path: path)
            let refused = try await client.request(#"{"id":1,"cmd":"claim"}"#)
            #expect(refused["error"]?["code"] == "invalid_argument")
            #expect(refused["error"]?["message"]?.stringValue?.contains("\"holder\"") == true)
        }
    }
}
