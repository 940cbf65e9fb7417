import EarshotBase
import EarshotProtocol
@testable import EarshotServer
import Glibc
import Testing

@Suite struct ServerSubscriptionTests {
    /// Reads events until one of kind `last` arrives, and returns them all.
    private func events(of client: SocketTestClient, through last: String) async throws -> [JSONValue] {
        var events: [JSONValue] = []
        while true {
            let event = try await client.readJSON()
            events.append(event)
            if event["event"] == .string(last) { return events }
        }
    }

    @Test func eachSubscriberGetsItsTopicsAtItsLevelRate() async throws {
        try await ServerHarness.withServer { server, path in
            let states = try SocketTestClient(path: path)
            let levels = try SocketTestClient(path: path)
            let everything = try SocketTestClient(path: path)
            let nothing = try SocketTestClient(path: path)
            let stateResponse = try await states.request(#"{"id":1,"cmd":"subscribe","topics":["state","device"]}"#)
            #expect(stateResponse == ["id": 1, "ok": true, "topics": ["state", "device"], "level_hz": 30])
            let levelResponse = try await levels.request(#"{"id":2,"cmd":"subscribe","topics":["level","device"],"level_hz":10}"#)
            #expect(levelResponse == ["id": 2, "ok": true, "topics": ["level", "device"], "level_hz": 10])
            let everythingResponse = try await everything.request(#"{"id":3,"cmd":"subscribe"}"#)
            #expect(everythingResponse["topics"] == ["state", "speech", "transcript", "speaker", "level", "error", "device", "config", "wake"])

            let wallBefore = WallClock.now()
            server.publish(ServerTestEvents.state(turn: 0, time: 0))
            server.publish(.speech(SpeechEvent(turn: 1, phase: .start(audioStart: 0.2), time: 0.5)))
            for reading in 1...120 {
                server.publish(ServerTestEvents.level(ServerTestEvents.readingTime(reading, rate: 60)))
                // As at 60 Hz, each client's loop takes a reading before the next comes: a
                // reading not taken yet would be replaced.
                _ = try await server.clientBacklogs()
            }
            server.publish(.error(ErrorEvent(code: "reply_timeout", message: "No reply.", time: 1.9)))
            server.publish(.error(ErrorEvent(code: "sound_server_lost", message: "Gone.", retryIn: 0.5, time: 1.95)))
            server.publish(ServerTestEvents.device(time: 2))

            let stateEvents = try await events(of: states, through: "device")
            #expect(stateEvents.compactMap { $0["event"]?.stringValue } == ["state", "device"])

            let levelEvents = try await events(of: levels, through: "device")
            let levelTimes = levelEvents.filter { $0["event"] == "level" }.compactMap { $0["t"]?.numberValue?.doubleValue }
            #expect(levelEvents.count == levelTimes.count + 1)
            #expect((19...21).contains(levelTimes.count), "\(levelTimes.count) levels over 2 s at 10 Hz")
            #expect(zip(levelTimes.dropFirst(), levelTimes).allSatisfy { $0 - $1 >= 0.09 - 1e-9 })

            let allEvents = try await events(of: everything, through: "device")
            let kinds = allEvents.compactMap { $0["event"]?.stringValue }
            #expect(kinds.first == "state")
            #expect(kinds.filter { $0 == "level" }.count >= 59 && kinds.filter { $0 == "level" }.count <= 61)
            #expect(kinds.suffix(3) == ["error", "error", "device"])
            #expect(allEvents.last?["retry_in"] == nil)
            #expect(allEvents[allEvents.count - 2]["retry_in"]?.numberValue?.text == "0.5")

            for event in stateEvents + levelEvents + allEvents {
                let keys = event.objectValue?.members.map(\.key) ?? []
                #expect(keys.first == "event")
                #expect(keys.suffix(2) == ["wall", "t"])
                let wall = event["wall"]?.numberValue?.doubleValue ?? 0
                #expect(wall >= wallBefore - 0.001 && wall <= WallClock.now() + 0.001)
            }

            // Nothing reached the client that did not subscribe: its next line is a response.
            #expect(try await nothing.request(#"{"id":4,"cmd":"status"}"#)["id"] == 4)
        }
    }

    /// Events are published from another thread while the client's requests are answered, on
    /// one socket: every line arrives whole, responses in request order, state events in
    /// order, and every level reading or a count of it dropped.
    @Test func eventsAndResponsesNeverInterleave() async throws {
        try await ServerHarness.withServer(configure: { configuration in
            configuration.sendBufferSize = 4096
            // The readings' audio time runs ~50 times faster than the wall clock here: on a busy
            // machine a client paused for 150 ms would pass the default 10 s and be disconnected,
            // which `ServerSlowClientTests` checks; this test is about order.
            configuration.stallLimit = 1000
        }) { server, path in
            let client = try SocketTestClient(path: path, receiveBufferSize: 4096)
            _ = try await client.request(#"{"id":0,"cmd":"subscribe","topics":["state","level","device"],"level_hz":60}"#)

            let published = 3000
            let publishing = Task.detached {
                for reading in 1...published {
                    server.publish(ServerTestEvents.level(ServerTestEvents.readingTime(reading, rate: 60)))
                    if reading % 10 == 0 { server.publish(ServerTestEvents.state(turn: reading, time: Double(reading) / 60)) }
                    usleep(200)
                }
                server.publish(ServerTestEvents.device(time: 100))
            }
            var events: [JSONValue] = []
            var responseIDs: [Int] = []
            for id in 1...40 {
                let response = try await client.request(#"{"id":\#(id),"cmd":"status"}"#, events: &events)
                responseIDs.append(response["id"]?.integerValue ?? -1)
            }
            while events.last?["event"] != "device" { events.append(try await client.readJSON()) }
            await publishing.value

            #expect(responseIDs == Array(1...40))
            let states = events.filter { $0["event"] == "state" }.compactMap { $0["turn"]?.integerValue }
            #expect(states == states.sorted())
            #expect(states.count == published / 10)
            let levels = events.filter { $0["event"] == "level" }.count
            #expect(levels + server.counters.droppedLevels == published)
        }
    }

    @Test func unsubscribeStopsEvents() async throws {
        try await ServerHarness.withServer { server, path in
            let client = try SocketTestClient(path: path)
            _ = try await client.request(#"{"id":1,"cmd":"subscribe","topics":["state"]}"#)
            server.publish(ServerTestEvents.state(turn: 1, time: 1))
            #expect(try await client.readJSON()["turn"] == 1)
            #expect(try await client.request(#"{"id":2,"cmd":"unsubscribe"}"#) == ["id": 2, "ok": true])
            server.publish(ServerTestEvents.state(turn: 2, time: 2))
            #expect(try await client.request(#"{"id":3,"cmd":"status"}"#)["id"] == 3)
            _ = try await client.request(#"{"id":4,"cmd":"subscribe","topics":["state"]}"#)
            server.publish(ServerTestEvents.state(turn: 3, time: 3))
            #expect(try await client.readJSON()["turn"] == 3)
        }
    }

    @Test func countsClientsAsTheyComeAndGo() async throws {
        try await ServerHarness.withServer { server, path in
            var clients = try (0..<3).map { _ in try SocketTestClient(path: path) }
            for client in clients { _ = try await client.request(#"{"cmd":"status"}"#) }
            #expect(server.counters.clients == 3)
            clients.removeAll()
            let deadline = ContinuousClock.now + .seconds(5)
            while server.counters.clients > 0, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
            #expect(server.counters == SocketServer.Counters(clients: 0, droppedLevels: 0, disconnectedSlowClients: 0))
        }
    }
}
