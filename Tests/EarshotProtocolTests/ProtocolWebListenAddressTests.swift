import EarshotProtocol
import Testing

@Suite struct ProtocolWebListenAddressTests {
    @Test(arguments: [
        ("127.0.0.1:8765", "127.0.0.1:8765"), ("127.1.2.3:80", "127.1.2.3:80"), ("localhost:8765", "127.0.0.1:8765"), ("[::1]:8765", "[::1]:8765"),
    ])
    func loopbackAddressesAreAccepted(_ text: String, _ hostHeader: String) throws {
        #expect(try WebListenAddress(parsing: text).hostHeader == hostHeader)
    }

    @Test(arguments: ["0.0.0.0:8765", "192.168.1.5:8765", "[::]:8765", "example.com:80", "127.0.0.1", "127.0.0.1:0", "127.0.0.1:http", "128.0.0.1:80"])
    func anythingElseIsRefusedInWords(_ text: String) {
        #expect(throws: WebListenAddressError.self) { try WebListenAddress(parsing: text) }
    }

    @Test func aPublicAddressSaysWhy() {
        let error = #expect(throws: WebListenAddressError.self) { try WebListenAddress(parsing: "0.0.0.0:8765") }
        #expect(error?.description == "\"0.0.0.0:8765\" cannot be the web front door's address: it is not a loopback address; the web front door listens on 127.0.0.1 or ::1 only, so no other machine can reach your microphone.")
    }
}
