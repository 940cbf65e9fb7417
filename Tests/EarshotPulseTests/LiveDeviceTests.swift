import EarshotAudio
import EarshotPulse
import EarshotTestSupport
import Foundation
import Testing

@Suite("Choosing and following devices", .enabled(if: TestPeers.soundServers), .tags(.live))
struct LiveDeviceTests {
    @Test(arguments: SoundServerKind.testable)
    func listsSourcesAndSinksWithDefaults(on kind: SoundServerKind) async throws {
        let live = try await LiveAudio.start(on: kind)
        defer { live.stop() }
        let devices = try await live.engine.devices()
        #expect(devices.sources.map(\.name) == ["mic", "speaker.monitor", "micfeed.monitor"]
            || devices.sources.map(\.name) == ["mic", "micfeed.monitor", "speaker.monitor"], "\(devices.sources)")
        #expect(devices.defaultSource?.name == "mic")
        #expect(devices.sources.filter(\.isMonitor).map(\.name).sorted() == ["micfeed.monitor", "speaker.monitor"])
        #expect(devices.sinks.map(\.name).sorted() == ["micfeed", "speaker"])
        #expect(devices.defaultSink?.name == "speaker")
        #expect(devices.sources.allSatisfy { !$0.description.isEmpty })
    }

    @Test(arguments: SoundServerKind.testable)
    func unknownDevicesAreRefused(on kind: SoundServerKind) async throws {
        let live = try await LiveAudio.start(on: kind)
        defer { live.stop() }
        do {
            try await live.engine.setSource("no-such-source")
            Issue.record("an unknown source was accepted")
        } catch {
            #expect(error.isUnknownEntity, "\(error)")
            #expect(error.description.contains("no-such-source"))
        }
        await #expect(throws: PulseError.self) { try await live.engine.setSink("no-such-sink") }
        // Names the server could never give a device (found by the request flood, issue 14): it
        // calls them invalid; they are unknown devices, not a failure of the server.
        for name in ["no pe", "x/y", "nope\u{1}", String(repeating: "a", count: 300), "n\u{e9}pe"] {
            do {
                try await live.engine.setSink(name)
                Issue.record("the sink \(name) was accepted")
            } catch {
                #expect(error.isUnknownEntity, "\(error)")
            }
        }
        #expect(live.engine.status.source == "mic")
        #expect(live.engine.status.sink == "speaker")
    }

    /// Choosing a source moves capture there; nil goes back to following the default.
    @Test(arguments: SoundServerKind.testable)
    func setSourceMovesCaptureAndBack(on kind: SoundServerKind) async throws {
        let live = try await LiveAudio.start(on: kind)
        defer { live.stop() }
        let before = live.events.all.count
        #expect(try await live.engine.setSource("speaker.monitor") == "speaker.monitor")
        #expect(await live.events.first(from: before) { $0 == .sourceChanged("speaker.monitor") } != nil)
        #expect(live.engine.status.source == "speaker.monitor")
        #expect(try await live.engine.setSource(nil) == "mic")
        #expect(await live.events.first(from: before) { $0 == .sourceChanged("mic") } != nil)

        #expect(try await live.engine.setSink("micfeed") == "micfeed")
        #expect(await live.events.first(from: before) { $0 == .sinkChanged("micfeed") } != nil)
        #expect(live.engine.status.sink == "micfeed")
    }

    /// With no source named, capture follows the server's default when it changes.
    @Test(arguments: SoundServerKind.testable)
    func followsTheDefaultSource(on kind: SoundServerKind) async throws {
        let live = try await LiveAudio.start(on: kind)
        defer { live.stop() }
        let before = live.events.all.count
        _ = try await onDedicatedThread { try live.server.pactl("set-default-source", "micfeed.monitor") }
        #expect(await live.events.first(from: before) { $0 == .sourceChanged("micfeed.monitor") } != nil, "\(live.events.events)")
        _ = try await onDedicatedThread { try live.server.pactl("set-default-sink", "micfeed") }
        #expect(await live.events.first(from: before) { $0 == .sinkChanged("micfeed") } != nil, "\(live.events.events)")
        let status = live.engine.status
        #expect(status.isConnected && status.server == live.server.serverAddress)
        #expect(status.source == "micfeed.monitor" && status.sink == "micfeed")
        // pipewire-pulse calls itself "PulseAudio (on PipeWire 0.3.65)", version included.
        let serverName = kind == .pipeWire ? "PulseAudio (on PipeWire " : "pulseaudio "
        #expect(status.serverName?.hasPrefix(serverName) == true, "\(status)")
    }

    /// A named source that disappears: capture falls back to the default and goes on; when the
    /// source comes back, capture returns to it.
    @Test(arguments: SoundServerKind.testable)
    func namedSourceUnloadedFallsBackToDefault(on kind: SoundServerKind) async throws {
        let server = try await onDedicatedThread { try kind.start() }
        let loaded = try await onDedicatedThread {
            try server.pactl("load-module", "module-remap-source", "source_name=mic2", "master=micfeed.monitor")
        }
        let module = loaded.trimmingCharacters(in: .whitespacesAndNewlines)
        let live = try await LiveAudio.start(server: server) { $0.source = "mic2" }
        defer { live.stop() }
        #expect(live.engine.status.source == "mic2")
        let collector = FrameCollector(live.engine)
        defer { collector.stop() }
        #expect(await collector.waitUntil(count: 10))

        let before = live.events.all.count
        let engine = live.engine
        async let fellBackAt = LiveAudio.instant(within: .seconds(2)) { engine.status.source == "mic" }
        let unloaded = ContinuousClock.now
        _ = try await onDedicatedThread { try server.pactl("unload-module", module) }
        let fellBack = try #require(await fellBackAt, "capture stayed on the unloaded source") - unloaded
        #expect(await live.events.first(from: before) { $0 == .sourceChanged("mic") } != nil, "\(live.events.events)")
        #expect(await live.events.first(from: before) { $0 == .devicesChanged } != nil, "\(live.events.events)")
        let count = collector.count
        #expect(await collector.waitUntil(count: count + 20, within: .seconds(1)), "capture stopped after the fallback")
        #expect(live.engine.counters.reconnects == 0)
        print("\(kind): fallback to the default source \(fellBack) after the unload")

        let beforeReturn = live.events.all.count
        _ = try await onDedicatedThread {
            try server.pactl("load-module", "module-remap-source", "source_name=mic2", "master=micfeed.monitor")
        }
        #expect(await live.events.first(from: beforeReturn) { $0 == .sourceChanged("mic2") } != nil, "\(live.events.events)")
    }

    /// A named source that does not exist at start: capture starts on the default.
    @Test(arguments: SoundServerKind.testable)
    func missingNamedSourceAtStartUsesTheDefault(on kind: SoundServerKind) async throws {
        let live = try await LiveAudio.start(on: kind) { $0.source = "not-plugged-in" }
        defer { live.stop() }
        #expect(live.engine.status.source == "mic")
        let engine = live.engine
        #expect(await onDedicatedThread { engine.waitForFrames(timeout: .seconds(1)) })
    }
}
