import EarshotJSON
import Foundation

extension ScriptedDaemonPeer {
    /// A request line as the scripted daemon received it.
    struct Request: Sendable {
        let line: String

        var object: [String: Any] {
            (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any] ?? [:]
        }

        /// The `id` as JSON text, echoed as the daemon would; `null` when absent.
        var idText: String {
            guard let id = object["id"] else { return "null" }
            if let number = id as? Int { return String(number) }
            return String(decoding: (try? JSONSerialization.data(withJSONObject: id, options: .fragmentsAllowed)) ?? Data("null".utf8), as: UTF8.self)
        }

        var command: String? { object["cmd"] as? String }

        func success(_ fields: String = "") -> String {
            #"{"id":\#(idText),"ok":true"# + (fields.isEmpty ? "" : "," + fields) + "}"
        }

        func failure(code: String, message: String) -> String {
            #"{"id":\#(idText),"ok":false,"error":{"code":"\#(code)","message":"\#(message)"}}"#
        }
    }
}
