#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import EarshotSpeech
import NIOCore
import NIOPosix

/// One request's connection to a Wyoming server, from connect to close.
enum WyomingConnection {
    typealias Channel = NIOAsyncChannel<ByteBuffer, ByteBuffer>

    /// Connects, then runs `converse` with the server's events (and whatever `feed` yields)
    /// arriving on the link's inputs, and closes the connection when `converse` returns or throws.
    /// `feed` is cancelled then; it must check for cancellation after every await.
    /// Failures are thrown as ``WyomingClientFailure`` or `CancellationError`.
    static func run<Local: Sendable, Result: Sendable>(
        to endpoint: WyomingEndpoint,
        timeouts: WyomingTimeouts,
        eventLoopGroup: any EventLoopGroup,
        limits: WyomingFrameLimits = WyomingFrameLimits(),
        feed: (@Sendable (AsyncStream<WyomingInput<Local>>.Continuation, ResponseDeadline) async -> Void)? = nil,
        converse: (WyomingLink<Local>) async throws -> Result
    ) async throws -> Result {
        let channel = try await connect(to: endpoint, timeout: timeouts.connect, eventLoopGroup: eventLoopGroup)
        let nioChannel = channel.channel
        return try await channel.executeThenClose { inbound, outbound in
            let (inputs, continuation) = AsyncStream.makeStream(of: WyomingInput<Local>.self)
            let deadline = ResponseDeadline()
            return try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    await read(inbound, limits: limits, into: continuation)
                }
                group.addTask {
                    await deadline.watch {
                        nioChannel.close(promise: nil)
                        continuation.yield(.timedOut)
                    }
                }
                // Not a child task: a reader of the caller's input may not notice cancellation
                // (`UtteranceAudio` waits for its next chunk), and the answer must not wait for it.
                let feeder = feed.map { feed in Task { await feed(continuation, deadline) } }
                defer {
                    feeder?.cancel()
                    group.cancelAll()
                    nioChannel.close(promise: nil)
                    continuation.finish()
                }
                return try await converse(WyomingLink(inputs: inputs, deadline: deadline, outbound: outbound))
            }
        }
    }

    private static func connect(
        to endpoint: WyomingEndpoint, timeout: Duration, eventLoopGroup: any EventLoopGroup
    ) async throws(WyomingClientFailure) -> Channel {
        let bootstrap = ClientBootstrap(group: eventLoopGroup)
            .connectTimeout(.nanoseconds(Int64(timeout / .nanoseconds(1))))
        let initializer: @Sendable (any NIOCore.Channel) -> EventLoopFuture<Channel> = { channel in
            channel.eventLoop.makeCompletedFuture {
                try Channel(wrappingChannelSynchronously: channel)
            }
        }
        do {
            switch endpoint {
            case .tcp(let host, let port):
                return try await bootstrap.connect(host: host, port: port, channelInitializer: initializer)
            case .unix(let path):
                return try await bootstrap.connect(unixDomainSocketPath: path, channelInitializer: initializer)
            }
        } catch ChannelError.connectTimeout {
            throw .connectTimedOut(timeout)
        } catch let error as NIOConnectionError {
            if let dnsError = error.dnsAError ?? error.dnsAAAAError {
                throw .unreachable("cannot resolve \(error.host): \(reason(dnsError))")
            }
            if let first = error.connectionErrors.first {
                if case ChannelError.connectTimeout = first.error { throw .connectTimedOut(timeout) }
                throw .unreachable(reason(first.error))
            }
            throw .unreachable("cannot resolve \(error.host)")
        } catch {
            throw .unreachable(reason(error))
        }
    }

    /// Reads events until the server closes the connection or it breaks, yielding each.
    private static func read<Local>(
        _ inbound: NIOAsyncChannelInboundStream<ByteBuffer>,
        limits: WyomingFrameLimits,
        into continuation: AsyncStream<WyomingInput<Local>>.Continuation
    ) async {
        var decoder = WyomingFrameDecoder(limits: limits)
        do {
            for try await buffer in inbound {
                decoder.append(buffer.readableBytesView)
                while let event = try decoder.next() { continuation.yield(.event(event)) }
            }
        } catch let error as WyomingDecodingError {
            continuation.yield(.broken(.notWyoming(error)))
            return
        } catch {
            continuation.yield(.broken(.connectionBroken(reason(error))))
            return
        }
        // Ending inside an event is a server that went away, not one that speaks another protocol.
        continuation.yield(.serverClosed)
    }

    /// An I/O error in a few words, as the system says them: "connection refused".
    static func reason(_ error: any Error) -> String {
        if let error = error as? IOError {
            let text = String(cString: strerror(error.errnoCode))
            return text.prefix(1).lowercased() + text.dropFirst()
        }
        if let error = error as? ChannelError, error == .ioOnClosedChannel || error == .alreadyClosed {
            return "the connection is closed"
        }
        return String(describing: error)
    }
}
