import EarshotDaemon
import EarshotEngines
import EarshotSpeech
import Foundation
import Testing

@Suite struct AssistantSettingsTests {
    static func parse(_ text: String) throws -> Settings {
        try SettingsFile.parse(text, file: "config.toml")
    }

    @Test func theSectionSetsTheServerModelPromptAndMemory() throws {
        let settings = try Self.parse("""
            [assistant]
            server = "openai+http://127.0.0.1:11434/v1"
            model = "llama3.2"
            instructions = "Be brief."
            max_turns = 6
            """)
        let assistant = try #require(try AssistantConfiguration(settings.assistant, environment: [:]))
        #expect(assistant.endpoint.baseURL == "http://127.0.0.1:11434/v1")
        #expect(assistant.model == "llama3.2")
        #expect(assistant.instructions == "Be brief.")
        #expect(assistant.maximumTurns == 6)
        #expect(assistant.apiKey == nil)
        #expect(assistant.makeAssistant().name == "assistant at http://127.0.0.1:11434/v1 (model llama3.2)")
    }

    @Test func withoutAServerThereIsNoAssistantAndTheDefaultsAreForVoice() throws {
        #expect(try AssistantConfiguration(Settings().assistant, environment: [:]) == nil)
        var section = Settings.Assistant()
        section.server = "openai+https://api.openai.com/v1"
        let assistant = try #require(try AssistantConfiguration(section, environment: ["OPENAI_API_KEY": "sk-test"]))
        #expect(assistant.model == "gpt-4o-mini")
        #expect(assistant.maximumTurns == 20)
        #expect(assistant.instructions.contains("spoken aloud"))
        #expect(assistant.apiKey == OpenAIAPIKey("sk-test"))
        #expect("\(section) \(assistant.apiKey!)".contains("sk-test") == false, "the key is never shown")
    }

    @Test func theInstructionsComeFromAFileWhenNotInline() throws {
        let path = NSTemporaryDirectory() + "earshot-instructions-\(UUID().uuidString.prefix(8)).txt"
        try "Answer like a pirate.\n".write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        var section = Settings.Assistant()
        section.server = "openai+http://127.0.0.1:8080/v1"
        section.instructionsFile = path
        #expect(try AssistantConfiguration(section, environment: [:])?.instructions == "Answer like a pirate.\n")
        section.instructions = "Inline wins."
        #expect(try AssistantConfiguration(section, environment: [:])?.instructions == "Inline wins.")
        section.instructions = nil
        section.instructionsFile = path + ".missing"
        #expect(throws: AssistantConfigurationError.self) { try AssistantConfiguration(section, environment: [:]) }
    }

    @Test func aBadAddressOrTurnCountIsRefusedWithTheLine() throws {
        let error = try #require(throws: SettingsFileError.self) {
            try Self.parse("[assistant]\nserver = \"http://127.0.0.1:11434/v1\"\nmax_turns = 99\n")
        }
        let messages = error.problems.map(\.description)
        #expect(messages.count == 2, "\(messages)")
        #expect(messages.first?.contains("[assistant] server: expected openai+http://HOST:PORT/v1 or openai+https://HOST/v1") == true, "\(messages)")
        #expect(messages.last?.contains("[assistant] max_turns") == true, "\(messages)")
    }

    @Test func theFlagsAreNamedAfterTheSection() {
        #expect(SettingsKey.named("assistant.server")?.flag == "--assistant")
        #expect(SettingsKey.named("assistant.max_turns")?.flag == "--assistant-max-turns")
        #expect(SettingsKey.named("assistant.api_key_file")?.reload == .restart)
    }
}
