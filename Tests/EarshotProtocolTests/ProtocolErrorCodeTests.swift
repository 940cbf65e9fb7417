import EarshotProtocol
import Foundation
import Testing

/// Every error code the daemon sends is a case of `ProtocolError.Code`, and PROTOCOL.md gives
/// each a line of its own in one of its tables of codes.
@Suite struct ProtocolErrorCodeTests {
    /// The codes named in the first cell of PROTOCOL.md's table rows.
    static func documentedCodes() throws -> Set<String> {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("PROTOCOL.md").path
        let text = try String(contentsOfFile: path, encoding: .utf8)
        var codes: Set<String> = []
        for line in text.split(separator: "\n") where line.hasPrefix("| `") {
            let firstCell = line.dropFirst(2).prefix { $0 != "|" }
            for (index, piece) in firstCell.split(separator: "`", omittingEmptySubsequences: false).enumerated() where index % 2 == 1 {
                codes.insert(String(piece))
            }
        }
        return codes
    }

    @Test func everyCodeHasALineInTheProtocol() throws {
        let documented = try Self.documentedCodes()
        for code in ProtocolError.Code.allCases {
            #expect(documented.contains(code.rawValue), "PROTOCOL.md has no line for \(code.rawValue)")
        }
    }

    @Test func codesAreLowercaseWordsJoinedByUnderscores() {
        for code in ProtocolError.Code.allCases {
            #expect(!code.rawValue.isEmpty && code.rawValue.allSatisfy { $0.isLowercase || $0.isNumber || $0 == "_" }, "\(code.rawValue)")
        }
    }

    @Test func aCodeTravelsAsItsNameAndAnUnknownOneIsKept() throws {
        let error = ProtocolError(code: .unknownVoice, message: "There is no voice called \"x\".")
        #expect(error.code == "unknown_voice")
        #expect(error.knownCode == .unknownVoice)
        let newer = ProtocolError(code: "from_a_newer_daemon", message: "Something new.")
        #expect(newer.knownCode == nil)
        let event = ErrorEvent(code: .speechFailed, message: "The synthesizer failed.", time: 2)
        #expect(event.code == "speech_failed")
    }
}
