import EarshotEngines
import Testing

@Suite struct WyomingEndpointTests {
    @Test func parsesTheURIsTheServersTake() throws {
        #expect(try WyomingEndpoint(parsing: "tcp://127.0.0.1:10300") == .tcp(host: "127.0.0.1", port: 10300))
        #expect(try WyomingEndpoint(parsing: "tcp://whisper.lan:10300/") == .tcp(host: "whisper.lan", port: 10300))
        #expect(try WyomingEndpoint(parsing: "tcp://[::1]:10200") == .tcp(host: "::1", port: 10200))
        #expect(try WyomingEndpoint(parsing: "unix:///run/wyoming/stt.sock") == .unix(path: "/run/wyoming/stt.sock"))
    }

    @Test func printsBackWhatItParsed() throws {
        for text in ["tcp://127.0.0.1:10300", "tcp://[::1]:10200", "unix:///tmp/x.sock"] {
            #expect(try WyomingEndpoint(parsing: text).description == text)
        }
    }

    @Test(arguments: [
        ("http://127.0.0.1:10300", "only tcp:// and unix:// addresses are supported"),
        ("127.0.0.1:10300", "only tcp:// and unix:// addresses are supported"),
        ("tcp://127.0.0.1", "it has no port"),
        ("tcp://:10300", "it has no host"),
        ("tcp://host:0", "the port must be a number from 1 to 65535"),
        ("tcp://host:70000", "the port must be a number from 1 to 65535"),
        ("tcp://host:ten", "the port must be a number from 1 to 65535"),
        ("tcp://[::1", "the IPv6 host has no closing ]"),
        ("unix://", "it names no socket path"),
    ])
    func refusesWithAReason(text: String, reason: String) {
        let error = #expect(throws: WyomingEndpointError.self) { try WyomingEndpoint(parsing: text) }
        #expect(error?.reason == reason)
        #expect(error?.description.contains("use tcp://HOST:PORT or unix:///PATH") == true)
    }
}
