public import EarshotEngines
public import EarshotSpeech
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The `[assistant]` section made ready: the chat server's address, the model, the system
/// prompt (read from its file at start), how many exchanges are remembered, and the API key.
public struct AssistantConfiguration: Sendable {
    public var endpoint: OpenAIEndpoint
    public var model: String
    public var instructions: String
    public var maximumTurns: Int
    public var apiKey: OpenAIAPIKey?

    /// What the assistant is told when the configuration says nothing: a voice has no screen.
    public static let defaultInstructions = """
        You are a helpful voice assistant. Your answers are spoken aloud, so keep them short \
        (one to three sentences), in plain words, without markdown, lists, code or links.
        """

    public init(endpoint: OpenAIEndpoint, model: String = Settings.Assistant.defaultModel, instructions: String = defaultInstructions,
                maximumTurns: Int = 20, apiKey: OpenAIAPIKey? = nil) {
        self.endpoint = endpoint
        self.model = model
        self.instructions = instructions
        self.maximumTurns = maximumTurns
        self.apiKey = apiKey
    }

    /// The assistant `settings` configure, nil when they name no server; a bad address, key file
    /// or instructions file fails in words.
    public init?(_ settings: Settings.Assistant, environment: [String: String]) throws(AssistantConfigurationError) {
        guard let server = settings.server else { return nil }
        do {
            endpoint = try OpenAIEndpoint(parsing: server)
        } catch {
            throw AssistantConfigurationError(description: "[assistant] server: \(error.description)")
        }
        do {
            apiKey = try OpenAIAPIKey.load(file: settings.apiKeyFile, environment: environment)
        } catch {
            throw AssistantConfigurationError(description: "[assistant] api_key_file: \(error.description)")
        }
        model = settings.model ?? Settings.Assistant.defaultModel
        maximumTurns = settings.maximumTurns
        if let inline = settings.instructions {
            instructions = inline
        } else if let file = settings.instructionsFile {
            let path = file.hasPrefix("~/") ? (environment["HOME"] ?? "") + file.dropFirst() : file
            instructions = try Self.readInstructions(path)
        } else {
            instructions = Self.defaultInstructions
        }
    }

    /// How long the chat server may stay silent, before the first word and between two: less
    /// than `thinking`'s reply timeout (15 s), so the person hears why, not just that, no reply came.
    public static let timeouts = OpenAITimeouts(response: .seconds(10), idle: .seconds(10))

    /// The reply source it makes.
    public func makeAssistant() -> OpenAIAssistant {
        OpenAIAssistant(
            client: OpenAIChatClient(endpoint: endpoint, model: model, apiKey: apiKey, timeouts: Self.timeouts),
            instructions: instructions, maximumTurns: maximumTurns
        )
    }

    static let maximumInstructionsBytes = 64 * 1024

    private static func readInstructions(_ path: String) throws(AssistantConfigurationError) -> String {
        guard let file = fopen(path, "re") else {
            throw AssistantConfigurationError(description: "[assistant] instructions_file: \(path): \(String(cString: strerror(errno)))")
        }
        defer { fclose(file) }
        var bytes = [UInt8](repeating: 0, count: maximumInstructionsBytes + 1)
        let count = fread(&bytes, 1, bytes.count, file)
        guard count <= maximumInstructionsBytes else {
            throw AssistantConfigurationError(description: "[assistant] instructions_file: \(path) is larger than 64 KiB")
        }
        let text = String(decoding: bytes[..<count], as: UTF8.self)
        guard text.contains(where: { !$0.isWhitespace }) else {
            throw AssistantConfigurationError(description: "[assistant] instructions_file: \(path) is empty")
        }
        return text
    }
}

/// Why the `[assistant]` section cannot be used.
public struct AssistantConfigurationError: Error, Equatable, Sendable, CustomStringConvertible {
    public var description: String
}
