import EarshotEngines
import Foundation
import Testing

@Suite struct OpenAIAPIKeyTests {
    let directory: String = {
        let path = NSTemporaryDirectory() + "earshot-key-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }()

    func write(_ text: String, mode: Int) throws -> String {
        let path = directory + "/key"
        try? FileManager.default.removeItem(atPath: path)
        try text.write(toFile: path, atomically: false, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: path)
        return path
    }

    @Test func theFileWinsOverTheEnvironment() throws {
        let path = try write("sk-from-file\n", mode: 0o600)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        #expect(try OpenAIAPIKey.load(file: path, environment: ["OPENAI_API_KEY": "sk-from-env"]) == OpenAIAPIKey("sk-from-file"))
        #expect(try OpenAIAPIKey.load(file: nil, environment: ["OPENAI_API_KEY": " sk-from-env "]) == OpenAIAPIKey("sk-from-env"))
        #expect(try OpenAIAPIKey.load(file: nil, environment: [:]) == nil)
        #expect(try OpenAIAPIKey.load(file: "~/key", environment: ["HOME": directory]) == OpenAIAPIKey("sk-from-file"))
    }

    @Test func aFileOthersMayReadIsRefusedWithTheFix() throws {
        let path = try write("sk-secret", mode: 0o644)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        #expect(throws: OpenAIAPIKeyError(path: path, reason: "others may read it (mode 644): run chmod 600 \(path)")) {
            try OpenAIAPIKey.load(file: path, environment: [:])
        }
    }

    @Test func emptyMissingAndMultiWordFilesAreRefused() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let empty = try write("  \n", mode: 0o600)
        #expect(throws: OpenAIAPIKeyError(path: empty, reason: "it is empty")) { try OpenAIAPIKey.load(file: empty, environment: [:]) }
        let twoWords = try write("OPENAI_API_KEY=sk-1 extra", mode: 0o400)
        #expect(throws: OpenAIAPIKeyError(path: twoWords, reason: "it holds more than one word; put the key alone in the file")) {
            try OpenAIAPIKey.load(file: twoWords, environment: [:])
        }
        let missing = directory + "/nothing"
        #expect(throws: OpenAIAPIKeyError(path: missing, reason: "No such file or directory")) {
            try OpenAIAPIKey.load(file: missing, environment: [:])
        }
    }

    @Test func theKeyNeverPrints() {
        let key = OpenAIAPIKey("sk-very-secret")
        for text in ["\(key)", String(describing: key), String(reflecting: key), "\(Optional(key) as Any)", "\([key])"] {
            #expect(!text.contains("sk-very-secret"), "\(text)")
        }
        var dumped = ""
        dump(key, to: &dumped)
        #expect(!dumped.contains("sk-very-secret"), "\(dumped)")
    }
}
