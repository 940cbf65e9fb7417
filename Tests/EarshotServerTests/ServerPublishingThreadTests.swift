import Dispatch
import EarshotBase
import EarshotProtocol
import Foundation
import NIOCore
import NIOEmbedded
import Testing

@testable import EarshotServer

/// The publishing thread (the daemon's audio thread) hands events over and returns: it does no
/// socket I/O, and a level event allocates nothing. The connection's event loop writes.
@Suite struct ServerPublishingThreadTests {
    /// Runs `body` on a thread of its own, as the daemon's audio thread calls `publish`.
    private func onThread(_ body: @escaping @Sendable () -> Void) async {
        await withCheckedContinuation { (finished: CheckedContinuation<Void, Never>) in
            Thread {
                body()
                finished.resume()
            }.start()
        }
    }

    @Test func aPublishedEventReachesTheSocketOnlyThroughTheEventLoop() async throws {
        try await ServerHarness.withServer { server, path in
            let client = try SocketTestClient(path: path)
            _ = try await client.request(#"{"id":1,"cmd":"subscribe","topics":["state","level"],"level_hz":60}"#)
            let connection = try #require(server.core.registry.subscribers.first)
            let loopHeld = DispatchSemaphore(value: 0)
            let release = DispatchSemaphore(value: 0)
            connection.channel.eventLoop.execute {
                loopHeld.signal()
                release.wait()
            }
            await onThread {
                loopHeld.wait()
                server.publish(ServerTestEvents.state(turn: 1, time: 1))
                server.publish(ServerTestEvents.level(1.01))
            }
            // The publisher has returned while the loop is held: had it written to the socket,
            // the bytes would be waiting there now.
            try await Task.sleep(for: .milliseconds(50))
            #expect(!client.hasBytesWaiting)
            release.signal()
            #expect(try await client.readJSON()["event"] == "state")
            #expect(try await client.readJSON()["event"] == "level")
        }
    }

    /// A connection on an `EmbeddedChannel`, subscribed to `topics`; its loop runs only when
    /// told to.
    private func embeddedSubscriber(_ topics: String) throws -> (SocketServer, EmbeddedChannel) {
        let server = SocketServer(configuration: .init(path: "/nonexistent/earshot.sock"), handler: TestTurnHandler())
        let channel = EmbeddedChannel()
        // A WebSocket's peer proved itself at the upgrade: no peer credentials to read.
        try channel.pipeline.syncOperations.addHandler(ConnectionHandler(core: server.core, transport: .webSocket))
        try channel.connect(to: SocketAddress(unixDomainSocketPath: "/nonexistent/peer")).wait()
        try channel.writeInbound(InboundLine.line(Array(#"{"id":1,"cmd":"subscribe","topics":\#(topics),"level_hz":60}"#.utf8)))
        #expect(try written(channel) == [#"{"id":1,"ok":true,"topics":\#(topics),"level_hz":60}"#])
        return (server, channel)
    }

    /// The lines the channel wrote so far.
    private func written(_ channel: EmbeddedChannel) throws -> [String] {
        var lines: [String] = []
        while let buffer = try channel.readOutbound(as: ByteBuffer.self) {
            lines.append(String(buffer: buffer).trimmingCharacters(in: .newlines))
        }
        return lines
    }

    @Test func theEventLoopWritesWhatThePublisherHandedOverAndOnlyTheNewestLevel() throws {
        let (server, channel) = try embeddedSubscriber(#"["state","level"]"#)
        server.publish(ServerTestEvents.state(turn: 1, time: 1), wall: 5)
        for reading in 1...3 { server.publish(ServerTestEvents.level(1 + Double(reading) / 50), wall: 5) }
        #expect(try written(channel) == [], "publish wrote to the channel itself")
        channel.embeddedEventLoop.run()
        let lines = try written(channel)
        #expect(lines.count == 2)
        #expect(lines.first?.hasPrefix(#"{"event":"state""#) == true)
        #expect(lines.last?.hasSuffix(#""wall":5.000000,"t":1.06}"#) == true, "\(lines)")
        #expect(server.counters.droppedLevels == 2)
        _ = try channel.finish()
    }

    @Test func anUnwritableChannelKeepsItsEventsUntilItDrains() throws {
        let (server, channel) = try embeddedSubscriber(#"["state"]"#)
        channel.isWritable = false
        channel.pipeline.fireChannelWritabilityChanged()
        server.publish(ServerTestEvents.state(turn: 1, time: 1))
        channel.embeddedEventLoop.run()
        server.publish(ServerTestEvents.state(turn: 2, time: 2))
        channel.embeddedEventLoop.run()
        #expect(try written(channel) == [])
        let backlog = server.core.registry.subscribers.first?.outbox.withLock { $0.backlog }
        #expect(backlog?.queued == 2)
        channel.isWritable = true
        channel.pipeline.fireChannelWritabilityChanged()
        let turns = try written(channel).compactMap { try JSONParser.parse(Array($0.utf8))["turn"]?.integerValue }
        #expect(turns == [1, 2])
        _ = try channel.finish()
    }

    /// A level reading passes through two buffers on the publishing thread: the one it is
    /// encoded into and the client's level slot it is copied into. In steady state both keep
    /// their storage from one reading to the next, so `publish` allocates nothing for a level.
    /// Each measured `publish` finds the slot empty and wakes the loop, as at 60 Hz with a client
    /// that keeps up. (An allocation counter would be a stronger check, but hooking the Swift
    /// runtime's allocator makes the 6.3 Linux runtime crash: its retain adapter over-masks.)
    @Test func publishingALevelReusesTheBuffersItPassesThrough() async throws {
        try await ServerHarness.withServer { server, path in
            let client = try SocketTestClient(path: path)
            _ = try await client.request(#"{"id":1,"cmd":"subscribe","topics":["level"],"level_hz":60}"#)
            let connection = try #require(server.core.registry.subscribers.first)
            let events = (1...400).map { ServerTestEvents.level(ServerTestEvents.readingTime($0, rate: 60)) }
            let storage = Locked<[[UInt]]>([])
            await onThread {
                for (index, event) in events.enumerated() {
                    server.publish(event, wall: 1_795_000_000)
                    let slot = connection.outbox.withLock { outbox -> UInt in
                        guard case .open(let open) = outbox.state else { return 0 }
                        return open.levels.mic.line.withUnsafeReadableBytes { UInt(bitPattern: $0.baseAddress) }
                    }
                    let encoded = server.core.levelLine.withLock { levelLine in
                        [
                            levelLine.writer.bytes.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) },
                            levelLine.line.withUnsafeReadableBytes { UInt(bitPattern: $0.baseAddress) },
                        ]
                    }
                    // The first readings grow the buffers to the size of a line.
                    if index >= 100 { storage.withLock { $0.append(encoded + [slot]) } }
                    // The loop takes the reading before the next is published.
                    while connection.outbox.withLock({ $0.backlog.levels }) > 0 { usleep(100) }
                }
            }
            let addresses = storage.withLock { $0 }
            #expect(addresses.count == 300)
            for buffer in 0..<3 {
                let distinct = Set(addresses.map { $0[buffer] })
                #expect(distinct.count == 1 && !distinct.contains(0), "buffer \(buffer) moved: \(distinct.count) addresses")
            }
            #expect(server.counters.droppedLevels == 0)
            var received = 0
            while received < events.count, try await client.readJSON()["event"] == "level" { received += 1 }
            #expect(received == events.count)
        }
    }
}
