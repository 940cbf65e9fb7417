import AsyncHTTPClient
import EarshotBase
import EarshotSpeech
import NIOCore
import NIOHTTP1
import NIOPosix
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// How long an OpenAI-compatible client waits (and, for the connection, ``OpenAIExchange/connectTimeout``).
public struct OpenAITimeouts: Equatable, Sendable {
    /// From the request's end to the first byte of the answer: a transcript (the server
    /// transcribes the whole utterance first) or a reply's first audio.
    public var response: Duration
    /// Between two pieces of a streamed answer.
    public var idle: Duration

    public init(response: Duration = .seconds(30), idle: Duration = .seconds(15)) {
        self.response = response
        self.idle = idle
    }
}

/// One HTTP request to an OpenAI-compatible server, for a transcriber or synthesizer: it adds
/// the API key, checks the status (reading the server's error message), and watches for a server
/// that stops sending, failing with ``OpenAIFailure``.
struct OpenAIExchange: Sendable {
    let endpoint: OpenAIEndpoint
    let service: OpenAIService
    let apiKey: OpenAIAPIKey?
    let timeouts: OpenAITimeouts

    /// For the server to accept a connection (one setting for the process's one client).
    static let connectTimeout = Duration.seconds(3)

    /// One client for the process: its connection pool keeps connections to servers alive
    /// between requests. Never shut down: it lives as long as the process.
    static let client: HTTPClient = {
        var configuration = HTTPClient.Configuration()
        configuration.redirectConfiguration = .disallow
        configuration.decompression = .disabled
        configuration.timeout = .init(connect: .milliseconds(Int64(connectTimeout / .milliseconds(1))), read: .seconds(300))
        // A refused connection is said at once, not after the pool's retries have used up the
        // connect timeout: the callers try again themselves (the next turn, the transcription
        // queue's backoff, a synthesizer's retry).
        configuration.connectionPool.retryConnectionEstablishment = false
        return HTTPClient(eventLoopGroup: MultiThreadedEventLoopGroup.singleton, configuration: configuration)
    }()

    /// Posts `body` and hands `read` the answer's body pieces as they arrive; an error status
    /// fails with the server's message. `awaiting` names what the answer brings, for timeouts.
    func post<Result: Sendable>(
        body: [UInt8], contentType: String, awaiting: String,
        read: @escaping @Sendable (_ response: HTTPClientResponse, _ watch: StallWatch) async throws -> Result
    ) async throws(OpenAIFailure) -> Result {
        var request = HTTPClientRequest(url: endpoint.url(of: service.path))
        request.method = .POST
        request.headers.add(name: "Content-Type", value: contentType)
        request.headers.add(name: "Accept", value: "application/json, text/event-stream, audio/pcm")
        if let apiKey { request.headers.add(name: "Authorization", value: apiKey.authorization) }
        request.body = .bytes(body)
        let prepared = request
        let watch = StallWatch()
        watch.expect(awaiting, within: timeouts.response)
        do {
            return try await watch.guarding {
                let response = try await Self.client.execute(
                    prepared, deadline: .now() + .seconds(24 * 3600), logger: nil
                )
                guard response.status == .ok else {
                    throw await Self.statusFailure(response)
                }
                return try await read(response, watch)
            }
        } catch let failure as OpenAIFailure {
            throw failure
        } catch {
            throw Self.failure(error)
        }
    }

    private static func statusFailure(_ response: HTTPClientResponse) async -> OpenAIFailure {
        let body = (try? await response.body.collect(upTo: 64 * 1024)).map { Array($0.readableBytesView) } ?? []
        let retryAfter = response.headers.first(name: "Retry-After").flatMap {
            RetryAfter.delay($0, now: Double(time(nil)))
        }
        return .status(Int(response.status.code), message: OpenAIErrorBody.message(in: body), retryAfter: retryAfter)
    }

    /// What a failure of the HTTP client or the network means.
    static func failure(_ error: any Error) -> OpenAIFailure {
        if let failure = error as? OpenAIFailure { return failure }
        if let error = error as? HTTPClientError {
            switch error {
            case .connectTimeout: return .timedOut(awaiting: "the connection", connectTimeout)
            case .remoteConnectionClosed: return .connectionBroken("the server closed it")
            case .readTimeout, .deadlineExceeded: return .connectionBroken("the answer stopped coming")
            default: return .connectionBroken("\(error)")
            }
        }
        if let error = error as? IOError {
            let reason = String(cString: strerror(error.errnoCode))
            switch error.errnoCode {
            case ECONNRESET, EPIPE: return .connectionBroken(reason.lowercased())
            default: return .unreachable(reason.lowercased())
            }
        }
        if let error = error as? NIOConnectionError {
            let reasons = error.connectionErrors.map { "\($0.error)" }
            return .unreachable(reasons.first.map { Self.plainReason($0) } ?? "cannot connect to \(error.host)")
        }
        return .connectionBroken("\(error)")
    }

    /// "connection reset (error set): Connection refused (errno: 111)" → "connection refused".
    private static func plainReason(_ text: String) -> String {
        guard let colon = text.firstRange(of: "): ") else { return text }
        var reason = String(text[colon.upperBound...])
        if let errno = reason.firstRange(of: " (errno:") { reason = String(reason[..<errno.lowerBound]) }
        return reason.lowercased()
    }
}

/// Fails a request whose answer stops coming: each piece that arrives moves the deadline on.
/// A task of its own watches it, since a request blocked in the network cannot look at a clock.
final class StallWatch: Sendable {
    private struct State {
        var deadline = ContinuousClock.Instant.now
        var awaiting = ""
        var timeout = Duration.zero
    }

    private let state = Locked(State())

    /// The next thing must come within `timeout` from now.
    func expect(_ awaiting: String, within timeout: Duration) {
        state.withLock { state in
            state.deadline = .now + timeout
            state.awaiting = awaiting
            state.timeout = timeout
        }
    }

    /// Runs `work`, failing with ``OpenAIFailure/timedOut(awaiting:_:)`` (and cancelling it)
    /// once a deadline passes.
    func guarding<Result: Sendable>(_ work: @escaping @Sendable () async throws -> Result) async throws -> Result {
        try await withThrowingTaskGroup(of: Result?.self) { group in
            group.addTask { try await work() }
            group.addTask {
                try await self.watch()
                return nil
            }
            defer { group.cancelAll() }
            while let outcome = try await group.next() {
                if let outcome { return outcome }
            }
            throw CancellationError()
        }
    }

    private func watch() async throws {
        while true {
            try Task.checkCancellation()
            let (deadline, awaiting, timeout) = state.withLock { ($0.deadline, $0.awaiting, $0.timeout) }
            if ContinuousClock.now >= deadline { throw OpenAIFailure.timedOut(awaiting: awaiting, timeout) }
            try await Task.sleep(until: deadline, tolerance: .milliseconds(10), clock: .continuous)
        }
    }
}
