import EarshotProtocol
import Testing

@testable import EarshotServer

@Suite struct ServerWebAccessTests {
    static let token = String(repeating: "ab", count: 32)
    let access = WebAccess(
        listen: try! WebListenAddress(parsing: "127.0.0.1:8765"), token: AccessToken(token),
        allowedOrigins: ["https://chat.example.com"], files: ["index.html", "earshot.js"]
    )

    func decide(_ uri: String, method: String = "GET", host: String? = "127.0.0.1:8765", origin: String? = "http://127.0.0.1:8765") -> WebAccess.Decision {
        access.decide(method: method, uri: uri, host: host, origin: origin)
    }

    @Test func thePageAndItsFilesAreServedByExactName() {
        #expect(decide("/") == .serveFile("index.html"))
        #expect(decide("/earshot.js?v=2") == .serveFile("earshot.js"))
        #expect(decide("/", method: "HEAD") == .serveFile("index.html"))
        #expect(decide("/index.html", host: "localhost:8765") == .serveFile("index.html"))
        for path in ["/../voices/sky.toml", "/%2e%2e/etc/passwd", "/.hidden", "/web/index.html", "/earshot.js/", "//index.html"] {
            guard case .refuse(404, _) = decide(path) else {
                Issue.record("\(path) was not refused: \(decide(path))")
                continue
            }
        }
        #expect(decide("/", method: "POST") == .refuse(status: 405, reason: "POST /; only GET serves files"))
    }

    @Test func theSocketNeedsTheTokenAndAKnownOrigin() {
        #expect(decide("/socket?token=\(Self.token)") == .openSocket)
        #expect(decide("/socket?x=1&token=\(Self.token)", origin: "https://chat.example.com") == .openSocket)
        #expect(decide("/socket?token=\(Self.token)", host: "localhost:8765", origin: "http://localhost:8765") == .openSocket)
        let wrongToken = WebAccess.Decision.refuse(status: 401, reason: "a missing or wrong token; `earshot open` gives the page's address with the right one")
        #expect(decide("/socket") == wrongToken)
        #expect(decide("/socket?token=") == wrongToken)
        #expect(decide("/socket?token=\(Self.token.dropLast())") == wrongToken)
        #expect(decide("/socket?token=\(Self.token)0") == wrongToken)
        #expect(decide("/socket?token=\(Self.token.uppercased())") == wrongToken)
        #expect(decide("/socket?token=\(Self.token)", origin: "https://evil.example") == .refuse(
            status: 403, reason: "the origin https://evil.example is not allowed; add it to [web] allowed_origins"
        ))
        #expect(decide("/socket?token=\(Self.token)", origin: "http://127.0.0.1:9999") == .refuse(
            status: 403, reason: "the origin http://127.0.0.1:9999 is not allowed; add it to [web] allowed_origins"
        ))
        #expect(decide("/socket?token=\(Self.token)", origin: nil) == .refuse(status: 403, reason: "no Origin header; browsers send one"))
    }

    @Test func aForeignHostIsRefusedBeforeAnything() {
        // DNS rebinding: a page at evil.example whose name now points at 127.0.0.1.
        #expect(decide("/socket?token=\(Self.token)", host: "evil.example:8765") == .refuse(
            status: 421, reason: "the Host header \"evil.example:8765\" is not this daemon's address 127.0.0.1:8765"
        ))
        #expect(decide("/", host: "127.0.0.1:8766") != .serveFile("index.html"))
        #expect(decide("/", host: nil) == .refuse(status: 421, reason: "the Host header (none) is not this daemon's address 127.0.0.1:8765"))
    }

    @Test func theTokenNeverPrints() {
        for text in ["\(access)", String(reflecting: access), "\(access.token)", String(reflecting: access.token)] {
            #expect(!text.contains(Self.token), "\(text)")
        }
        var dumped = ""
        dump(access, to: &dumped)
        #expect(!dumped.contains(Self.token), "\(dumped)")
    }

    @Test func theTokenComparisonLooksAtEveryByte() {
        #expect(WebAccess.constantTimeEqual("abc", "abc"))
        #expect(!WebAccess.constantTimeEqual("abd", "abc"))
        #expect(!WebAccess.constantTimeEqual("ab", "abc"))
        #expect(!WebAccess.constantTimeEqual("abcd", "abc"))
        #expect(!WebAccess.constantTimeEqual("", "abc"))
    }

    @Test func allowedOriginsAreOriginsOnly() throws {
        #expect(try WebAccess.origins(parsing: "https://chat.example.com, http://localhost:3000") == ["https://chat.example.com", "http://localhost:3000"])
        #expect(try WebAccess.origins(parsing: "") == [])
        #expect(throws: WebOriginError.self) { try WebAccess.origins(parsing: "chat.example.com") }
        #expect(throws: WebOriginError.self) { try WebAccess.origins(parsing: "https://chat.example.com/app") }
        #expect(throws: WebOriginError.self) { try WebAccess.origins(parsing: "javascript://x") }
    }
}
