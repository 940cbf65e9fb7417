/// Where the web front door listens: a loopback address and a port.
public struct WebListenAddress: Hashable, Sendable, CustomStringConvertible {
    public var host: String
    public var port: Int

    /// Parses `127.0.0.1:8765`, `[::1]:8765` or `localhost:8765`; anything but loopback is
    /// refused, since the page hands out the microphone.
    public init(parsing text: String) throws(WebListenAddressError) {
        let host: Substring, portText: Substring
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]"), text[text.index(after: close)...].hasPrefix(":") else {
                throw WebListenAddressError(text: text, reason: "write an IPv6 address as [::1]:PORT")
            }
            host = text[text.index(after: text.startIndex)..<close]
            portText = text[text.index(close, offsetBy: 2)...]
        } else {
            guard let colon = text.lastIndex(of: ":") else { throw WebListenAddressError(text: text, reason: "it has no port (HOST:PORT)") }
            host = text[..<colon]
            portText = text[text.index(after: colon)...]
        }
        guard let port = Int(portText), (1...65_535).contains(port) else {
            throw WebListenAddressError(text: text, reason: "the port must be a number from 1 to 65535")
        }
        let name = host.lowercased()
        guard name == "localhost" || name == "::1" || Self.isIPv4Loopback(name) else {
            throw WebListenAddressError(
                text: text,
                reason: "it is not a loopback address; the web front door listens on 127.0.0.1 or ::1 only, so no other machine can reach your microphone"
            )
        }
        self.host = name == "localhost" ? "127.0.0.1" : name
        self.port = port
    }

    /// `127.0.0.1:8765`, `[::1]:8765`: as browsers send it in `Host`.
    public var hostHeader: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }

    public var description: String { hostHeader }

    static func isIPv4Loopback(_ text: String) -> Bool {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts[0] == "127" && parts.allSatisfy { part in UInt8(part).map { _ in true } ?? false }
    }
}

public struct WebListenAddressError: Error, Equatable, Sendable, CustomStringConvertible {
    public var text: String
    public var reason: String

    public var description: String { "\"\(text)\" cannot be the web front door's address: \(reason)." }
}
