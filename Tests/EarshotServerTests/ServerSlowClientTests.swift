import EarshotBase
import EarshotProtocol
import Foundation
import Testing

@testable import EarshotServer

@Suite struct ServerSlowClientTests {
    /// What the publishing thread measured.
    final class PublisherLog: Sendable {
        let durations = Locked<[Duration]>([])

        func timed(_ publish: () -> Void) {
            let start = ContinuousClock.now
            publish()
            let elapsed = ContinuousClock.now - start
            durations.withLock { $0.append(elapsed) }
        }

        /// Count, median, 99th percentile and longest.
        var summary: (count: Int, median: Duration, p99: Duration, longest: Duration) {
            let sorted = durations.withLock { $0.sorted() }
            return (sorted.count, sorted[sorted.count / 2], sorted[sorted.count * 99 / 100], sorted.last ?? .zero)
        }
    }

    /// Runs `body` on a thread of its own, as the daemon's pipeline thread calls `publish`.
    private func onThread(_ body: @escaping @Sendable () -> Void) async {
        await withCheckedContinuation { (finished: CheckedContinuation<Void, Never>) in
            Thread {
                body()
                finished.resume()
            }.start()
        }
    }

    /// Counts what a reading client receives until the closing `device` event.
    private func read(_ client: SocketTestClient) async throws -> (levels: Int, states: Int, latest: Double) {
        var levels = 0
        var states = 0
        var worstLatency = 0.0
        while true {
            let event = try await client.readJSON(timeout: .seconds(20))
            let latency = WallClock.now() - (event["wall"]?.numberValue?.doubleValue ?? 0)
            worstLatency = max(worstLatency, latency)
            switch event["event"] {
            case "level": levels += 1
            case "state": states += 1
            default: return (levels, states, worstLatency)
            }
        }
    }

    /// The stuck client's socket and NIO's buffer for it fill; from then on its level readings
    /// replace each other in its outbox and its state events wait there, until one finds the queue
    /// full. Readers get every state event, and every level reading or a count of it dropped.
    @Test func aClientThatStopsReadingLosesLevelsThenIsDisconnectedWhileOthersKeepUp() async throws {
        try await ServerHarness.withServer(configure: { configuration in
            // Small socket and NIO buffers, so the stuck client's backlog reaches its queue in
            // seconds rather than after a few hundred kilobytes.
            configuration.sendBufferSize = 4096
            configuration.writeBufferLowWaterMark = 1024
            configuration.writeBufferHighWaterMark = 4096
        }) { server, path in
            let stuck = try SocketTestClient(path: path, receiveBufferSize: 4096)
            try await stuck.send(#"{"id":"stuck","cmd":"subscribe","level_hz":60}"# + "\n")
            let readers = try (0..<3).map { _ in try SocketTestClient(path: path) }
            for reader in readers {
                _ = try await reader.request(#"{"cmd":"subscribe","topics":["state","level","device"],"level_hz":60}"#)
            }
            let log = PublisherLog()
            let steadyLevels = 300
            let burst = 400

            let boxes = readers.map(ClientBox.init)
            async let received = withThrowingTaskGroup(of: (levels: Int, states: Int, latest: Double).self) { group in
                for box in boxes {
                    group.addTask { try await read(box.value) }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }

            // Five seconds of 60 Hz levels with a state event every half second, paced like a
            // live microphone.
            await onThread {
                let start = ContinuousClock.now
                for reading in 1...steadyLevels {
                    let time = ServerTestEvents.readingTime(reading, rate: 60)
                    log.timed { server.publish(ServerTestEvents.level(time)) }
                    if reading % 30 == 0 { log.timed { server.publish(ServerTestEvents.state(turn: reading, time: time)) } }
                    Thread.sleep(forTimeInterval: (start + .milliseconds(reading * 1000 / 60) - ContinuousClock.now).timeInterval)
                }
            }
            let stuckBacklog = try await server.clientBacklogs().max { $0.droppedLevels < $1.droppedLevels }
            let afterSteady = server.counters

            // State events the stuck client has no room for.
            await onThread {
                for turn in 1...burst {
                    log.timed { server.publish(ServerTestEvents.state(turn: 1000 + turn, time: 5 + Double(turn) / 1000)) }
                    Thread.sleep(forTimeInterval: 0.001)
                }
                log.timed { server.publish(ServerTestEvents.device(time: 6)) }
            }

            let results = try await received
            for result in results {
                #expect(result.states == steadyLevels / 30 + burst)
                // Held up by the stuck client, a reader would wait until it is disconnected, over
                // 5 s in. The bound leaves room for the test process's own scheduling (the suite
                // runs in parallel on two cores); `make bench` measures the real latency.
                #expect(result.latest < 2.5, "an event reached a reader \(result.latest) s after it was published")
            }
            #expect(try await stuck.waitUntilClosedByServer(timeout: .seconds(5)))
            // A reader whose loop fell a reading behind got only the newer one. (The stuck
            // client's outbox is closed: it counts nothing here.)
            let readersDropped = try await server.clientBacklogs().map(\.droppedLevels).reduce(0, +)
            #expect(results.map(\.levels).reduce(0, +) + readersDropped == readers.count * steadyLevels)

            let backlog = try #require(stuckBacklog)
            // Levels never queue: the newest reading waits in its slot, and the state events
            // published since the socket filled wait in the queue.
            #expect(backlog.waitingLevels == 1)
            #expect(backlog.queuedLines <= steadyLevels / 30)
            #expect(backlog.droppedLevels > steadyLevels / 2)
            #expect(backlog.bufferedBytes <= 4096 + 16 * 200)
            #expect(afterSteady.droppedLevels >= backlog.droppedLevels)
            #expect(afterSteady.disconnectedSlowClients == 0)
            #expect(server.counters.disconnectedSlowClients == 1)
            #expect(server.counters.clients == 3)

            let publishes = log.summary
            print(
                "publish: \(publishes.count) calls, median \(publishes.median), p99 \(publishes.p99), longest \(publishes.longest);",
                "stuck client backlog \(backlog); dropped levels \(server.counters.droppedLevels)"
            )
            // Generous: the longest call is the thread being descheduled on a loaded machine (or
            // slowed by a sanitizer), not the server waiting for a client; a publish that waited
            // for the stuck client would take until its disconnection, over 5 s.
            #expect(publishes.longest < .milliseconds(250))
        }
    }
}

extension Duration {
    var timeInterval: TimeInterval {
        let (seconds, attoseconds) = components
        return max(0, Double(seconds) + Double(attoseconds) / 1e18)
    }
}
