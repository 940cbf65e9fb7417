import EarshotAudio
@testable import EarshotPulse
import EarshotTestSupport
import Foundation
import Testing

@Suite("Echo cancellation through module-echo-cancel", .enabled(if: TestPeers.soundServers), .tags(.live))
struct LiveEchoCancellationTests {
    static let source = "earshot_echo_cancel_source"
    static let sink = "earshot_echo_cancel_sink"

    /// With echo cancellation on, the engine captures from the canceller's source and plays on its
    /// sink, which sit on the default devices; `stop` unloads the module.
    @Test(arguments: SoundServerKind.testable)
    func capturesAndPlaysThroughTheCancellerAndUnloadsItOnStop(on kind: SoundServerKind) async throws {
        let started = ContinuousClock.now
        let live = try await LiveAudio.start(on: kind) { $0.echoCancellation = true }
        let connectedAfter = ContinuousClock.now - started
        defer { live.stop() }
        let status = live.engine.status
        guard case .active(let module, let masterSource, let masterSink) = status.echoCancellation else {
            Issue.record("echo cancellation is \(status.echoCancellation); server log:\n\(live.server.logTail)")
            return
        }
        #expect(masterSource == "mic" && masterSink == "speaker")
        #expect(status.source == Self.source && status.sink == Self.sink)
        #expect(await live.events.firstConnected()?.event == .connected(server: live.server.serverAddress, source: Self.source, sink: Self.sink))
        #expect(try await Self.modules(live.server) == [module])
        #expect(try await Self.devicesOfClientStreams(live.server, "source-outputs", on: "sources") == [Self.source])
        #expect(try await Self.devicesOfClientStreams(live.server, "sink-inputs", on: "sinks") == [Self.sink])

        // Speech into the microphone comes out of the canceller (processed, so level only).
        let collector = FrameCollector(live.engine)
        defer { collector.stop() }
        #expect(await collector.waitUntil(count: 10))
        let path = LiveAudio.fixture("two_phrases_short_pause.wav")
        let speech = try WAVFile.read(path).samples
        let start = collector.count
        let player = try live.server.play(path)
        #expect(await onDedicatedThread { player.wait() } == 0)
        #expect(await collector.waitUntil(count: collector.count + 20))
        let capturedDB = 20 * log10(SignalMeasure.rms(collector.samples(from: start)[...]) / SignalMeasure.rms(speech))
        #expect(capturedDB > -10, "speech captured at \(capturedDB) dB of the original")

        // What the engine plays reaches the real speaker unchanged.
        let recording = try live.server.record()
        try await Task.sleep(for: .milliseconds(100))
        let tone = SignalMeasure.sine(frequency: 1_000, seconds: 0.5, amplitude: 0.5)
        #expect(live.engine.play(tone))
        await live.engine.waitForPlayback()
        try await Task.sleep(for: .milliseconds(150))
        let recorded = await onDedicatedThread { recording.stop() }
        let offset = try #require(SignalMeasure.offset(of: tone, in: recorded), "the speaker heard nothing")
        try #require(offset + tone.count <= recorded.count)
        // Level, not waveform: when the canceller resyncs its two sides it may drop some playback
        // ("Playback after capture ... drop sink" in the server's log), which happened under load.
        let playedDB = 20 * log10(SignalMeasure.rms(recorded[offset..<(offset + tone.count)]) / SignalMeasure.rms(tone))
        #expect(abs(playedDB) < 1, "the tone reached the speaker at \(playedDB) dB")

        let stopCalled = ContinuousClock.now
        await onDedicatedThread { live.engine.stop() }
        let stopTook = ContinuousClock.now - stopCalled
        #expect(try await Self.modules(live.server).isEmpty, "module-echo-cancel still loaded after stop")
        #expect(stopTook < .milliseconds(500), "stop took \(stopTook)")
        print("\(kind) " + String(format: "echo cancel: module %u active, connected after %@ (speech captured at %.1f dB), stop took %@",
                     module, "\(connectedAfter)", capturedDB, "\(stopTook)"))
    }

    /// The point of it: with the speaker leaking into the microphone (a loopback with a fixed
    /// delay, like a room's), the engine's own speech is cancelled from its capture, while a plain
    /// engine on the same microphone hears it.
    @Test(arguments: SoundServerKind.testable)
    func cancelsTheEngineOwnSpeechFromItsCapture(on kind: SoundServerKind) async throws {
        let live = try await LiveAudio.start(on: kind) { $0.echoCancellation = true }
        defer { live.stop() }
        guard case .active = live.engine.status.echoCancellation else {
            Issue.record("echo cancellation is \(live.engine.status.echoCancellation)")
            return
        }
        let plain = try await LiveAudio.start(server: live.server)
        defer { plain.engine.stop() }
        // Not the canceller's devices themselves: with sink_master=micfeed (the microphone's own
        // feed) PulseAudio 16.1 hung; a rate-adjusting loopback made the echo delay wander.
        _ = try await onDedicatedThread {
            try live.server.pactl(
                "load-module", "module-loopback", "source=speaker.monitor", "sink=micfeed", "latency_msec=30", "adjust_time=0"
            )
        }
        let cancelled = FrameCollector(live.engine)
        defer { cancelled.stop() }
        let heard = FrameCollector(plain.engine)
        defer { heard.stop() }

        let speech = try WAVFile.read(LiveAudio.fixture("two_phrases_short_pause.wav")).samples
        // The first time through, the canceller learns the echo path.
        #expect(live.engine.play(speech))
        await live.engine.waitForPlayback()
        let (cancelledStart, heardStart) = (cancelled.count, heard.count)
        #expect(live.engine.play(speech))
        await live.engine.waitForPlayback()
        try await Task.sleep(for: .milliseconds(200))
        let echo = SignalMeasure.rms(heard.samples(from: heardStart)[...])
        let left = SignalMeasure.rms(cancelled.samples(from: cancelledStart)[...])
        let reductionDB = 20 * log10(echo / max(left, 1e-9))
        #expect(echo > 0.01, "the plain engine heard no echo (\(echo))")
        // PulseAudio: 25 to 50 dB here alone, 14 dB once while the whole suite ran (the canceller
        // resyncs on a busy machine). PipeWire 0.3.65's WebRTC canceller, with the same
        // arguments, removed 12 dB in every run here: it does cancel, less deeply. Under
        // ThreadSanitizer (`make sanitize`) the capture runs several times slower and PulseAudio's
        // canceller kept 12 to 14 dB: the run checks that it cancels, the plain build that
        // PulseAudio's cancels deeper than PipeWire's.
        let required = kind == .pipeWire || LiveAudio.isSanitized ? 8.0 : 10.0
        #expect(reductionDB > required, "echo reduced by only \(reductionDB) dB")
        print("\(kind) " + String(format: "echo cancel: echo at the microphone %.4f RMS, after the canceller %.5f RMS (%.1f dB less)",
                     echo, left, reductionDB))
    }

    /// When the server will not load the module, the engine says why and uses the plain devices.
    @Test(arguments: SoundServerKind.testable)
    func fallsBackToThePlainDevicesWhenTheModuleWillNotLoad(on kind: SoundServerKind) async throws {
        let live = try await LiveAudio.start(on: kind) {
            $0.echoCancellation = true
            $0.echoCancellerMethod = "bogus"
        }
        defer { live.stop() }
        let status = live.engine.status
        if kind == .pipeWire {
            // pipewire-pulse 0.3.65 ignores aec_method (it always loads WebRTC), so it does not
            // refuse this canceller: the engine uses it.
            guard case .active(_, "mic", "speaker") = status.echoCancellation else {
                Issue.record("echo cancellation is \(status.echoCancellation)")
                return
            }
            #expect(status.source == Self.source && status.sink == Self.sink)
            return
        }
        guard case .unavailable(let error) = status.echoCancellation else {
            Issue.record("echo cancellation is \(status.echoCancellation)")
            return
        }
        #expect(error.code == .moduleInitFailed, "\(error)")
        #expect(error.operation.contains("module-echo-cancel"), "\(error)")
        #expect(status.source == "mic" && status.sink == "speaker")
        #expect(try await Self.modules(live.server).isEmpty)
        #expect(await onDedicatedThread { live.engine.waitForFrames(timeout: .seconds(1)) })
        #expect(live.engine.play(Cue.enter))
        await live.engine.waitForPlayback()
        print("\(kind) echo cancel fallback: \(error)")
    }

    /// A chosen source the canceller refuses (the speaker's own monitor) is used without it: the
    /// choice of device comes first.
    @Test(arguments: SoundServerKind.testable)
    func refusedChosenSourceIsUsedWithoutTheCanceller(on kind: SoundServerKind) async throws {
        let live = try await LiveAudio.start(on: kind) {
            $0.echoCancellation = true
            $0.source = "speaker.monitor"
        }
        defer { live.stop() }
        if kind == .pipeWire {
            // pipewire-pulse does not refuse it: its canceller captures the speaker's monitor
            // (a capture stream on the sink), so the chosen source is used through the canceller.
            #expect(live.engine.status.echoCancellation == .active(
                module: try #require(try await Self.modules(live.server).first), source: "speaker.monitor", sink: "speaker"
            ))
            #expect(live.engine.status.source == Self.source)
            #expect(await onDedicatedThread { live.engine.waitForFrames(timeout: .seconds(1)) })
            return
        }
        guard case .unavailable(let error) = live.engine.status.echoCancellation else {
            Issue.record("echo cancellation is \(live.engine.status.echoCancellation)")
            return
        }
        #expect(error.code == .moduleInitFailed, "\(error)")
        #expect(live.engine.status.source == "speaker.monitor" && live.engine.status.sink == "speaker")
        try await Task.sleep(for: .milliseconds(300))
        #expect(try await Self.modules(live.server).isEmpty, "a canceller was loaded after all")
    }

    /// A chosen source that is missing is replaced by the default under the canceller, as it would
    /// be without it; once the chosen source appears, the canceller moves onto it.
    @Test(arguments: SoundServerKind.testable)
    func missingChosenSourceIsReplacedUntilItAppears(on kind: SoundServerKind) async throws {
        let live = try await LiveAudio.start(on: kind) {
            $0.echoCancellation = true
            $0.source = "usbmic"
        }
        defer { live.stop() }
        let engine = live.engine
        let module = try #require(try await Self.modules(live.server).first)
        if kind == .pipeWire {
            // pipewire-pulse loads the canceller on a missing source_master without complaint, so
            // the engine cannot tell it is missing; WirePlumber links the canceller's capture to
            // the default source meanwhile.
            #expect(engine.status.echoCancellation == .active(module: module, source: "usbmic", sink: "speaker"))
            #expect(try await Self.devicesOfModuleCapture(live.server).contains("mic"))
        } else {
            #expect(engine.status.echoCancellation == .active(module: module, source: "mic", sink: "speaker"))
        }
        #expect(engine.status.source == Self.source)

        _ = try await onDedicatedThread {
            try live.server.pactl("load-module", "module-remap-source", "source_name=usbmic", "master=micfeed.monitor")
        }
        let moved = await LiveAudio.instant(within: .seconds(3)) {
            guard case .active(_, "usbmic", "speaker") = engine.status.echoCancellation else { return false }
            return engine.status.source == Self.source
        }
        #expect(moved != nil, "the canceller did not move to the chosen source: \(engine.status)")
        try await Task.sleep(for: .milliseconds(300))
        #expect(try await Self.modules(live.server).count == 1)
        let captured = try await Self.devicesOfModuleCapture(live.server)
        #expect(captured.contains("usbmic") && !captured.contains("mic"), "the canceller does not capture the chosen source: \(captured)")
        #expect(await onDedicatedThread { engine.waitForFrames(timeout: .seconds(1)) })
    }

    /// A new server (after the old one died) gets the canceller again.
    @Test(arguments: SoundServerKind.testable)
    func reloadedAfterReconnecting(on kind: SoundServerKind) async throws {
        let live = try await LiveAudio.start(on: kind) { $0.echoCancellation = true }
        defer { live.stop() }
        let before = live.events.all.count
        await onDedicatedThread { live.server.kill() }
        try await onDedicatedThread { try live.server.restart() }
        #expect(await live.events.firstConnected(from: before) != nil, "never reconnected")
        guard case .active(let module, _, _) = live.engine.status.echoCancellation else {
            Issue.record("echo cancellation is \(live.engine.status.echoCancellation) after reconnecting")
            return
        }
        #expect(try await Self.modules(live.server) == [module])
        #expect(live.engine.status.source == Self.source)
    }

    /// Unloaded under the engine (by hand, or by the server when its device went), the canceller
    /// is loaded again and the streams return to it.
    @Test(arguments: SoundServerKind.testable)
    func reloadedWhenUnloadedUnderTheEngine(on kind: SoundServerKind) async throws {
        let live = try await LiveAudio.start(on: kind) { $0.echoCancellation = true }
        defer { live.stop() }
        guard case .active(let first, _, _) = live.engine.status.echoCancellation else {
            Issue.record("echo cancellation is \(live.engine.status.echoCancellation)")
            return
        }
        // pipewire-pulse reuses a module's index once it is unloaded, so the canceller's source
        // (a new one, at a new index) tells the reloaded canceller from the first.
        let firstSource = try await Self.cancellerSourceIndex(live.server)
        _ = try await onDedicatedThread { try live.server.pactl("unload-module", "\(first)") }
        let engine = live.engine
        let server = live.server
        let reloaded = await LiveAudio.instant(within: .seconds(3)) {
            guard case .active = engine.status.echoCancellation,
                  let source = try? server.pactl("list", "sources", "short"),
                  let index = Self.index(of: Self.source, in: source) else { return false }
            // The server may list the engine's stream on its way back a moment after the engine
            // says where it is.
            return index != firstSource && engine.status.source == Self.source && engine.status.sink == Self.sink
                && (try? Self.devicesOfStreams(server, "source-outputs", on: "sources")) == [Self.source]
        }
        #expect(reloaded != nil, "not reloaded: \(engine.status)")
        #expect(try await Self.devicesOfClientStreams(live.server, "source-outputs", on: "sources") == [Self.source])
        #expect(try await Self.modules(live.server).count == 1)
        #expect(await onDedicatedThread { engine.waitForFrames(timeout: .seconds(1)) })
    }

    /// Choosing another source moves the canceller onto it; capture stays on the canceller.
    @Test(arguments: SoundServerKind.testable)
    func setSourceMovesTheCanceller(on kind: SoundServerKind) async throws {
        let live = try await LiveAudio.start(on: kind) { $0.echoCancellation = true }
        defer { live.stop() }
        #expect(try await live.engine.setSource("micfeed.monitor") == "micfeed.monitor")
        let engine = live.engine
        let moved = await LiveAudio.instant(within: .seconds(3)) {
            guard case .active(_, "micfeed.monitor", "speaker") = engine.status.echoCancellation else { return false }
            return engine.status.source == Self.source
        }
        #expect(moved != nil, "the canceller did not move: \(engine.status)")
        let modules = try await onDedicatedThread { try live.server.pactl("list", "modules", "short") }
        let cancellers = modules.split(separator: "\n").filter { $0.contains("module-echo-cancel") }
        #expect(cancellers.count == 1 && cancellers[0].contains("source_master=\"micfeed.monitor\""), "\(cancellers)")
        let sources = try await onDedicatedThread { try live.server.pactl("list", "sources", "short") }
        #expect(!sources.contains("\(Self.source).2"), "\(sources)")
        #expect(await onDedicatedThread { engine.waitForFrames(timeout: .seconds(1)) })
    }

    /// A canceller left loaded by an engine that did not stop cleanly is replaced, so the names
    /// stay the same (no "earshot_echo_cancel_source.2").
    @Test(arguments: SoundServerKind.testable)
    func replacesACancellerLeftByAnEarlierRun(on kind: SoundServerKind) async throws {
        let server = try await onDedicatedThread { try kind.start() }
        _ = try await onDedicatedThread {
            try server.pactl(
                "load-module", "module-echo-cancel", "aec_method=webrtc", "source_master=mic", "sink_master=speaker",
                "source_name=\(Self.source)", "sink_name=\(Self.sink)"
            )
        }
        // Not the module's index: pipewire-pulse gives an unloaded module's index to the next.
        let leftover = try await Self.cancellerSourceIndex(server)
        let live = try await LiveAudio.start(server: server) { $0.echoCancellation = true }
        defer { live.stop() }
        guard case .active(let module, _, _) = live.engine.status.echoCancellation else {
            Issue.record("echo cancellation is \(live.engine.status.echoCancellation)")
            return
        }
        #expect(try await Self.cancellerSourceIndex(server) != leftover)
        #expect(try await Self.modules(server) == [module])
        #expect(live.engine.status.source == Self.source)
        let sources = try await onDedicatedThread { try server.pactl("list", "sources", "short") }
        #expect(!sources.contains("\(Self.source).2"), "\(sources)")
    }

    // MARK: Helpers

    /// The index of the canceller's source on `server`, nil when there is none.
    static func cancellerSourceIndex(_ server: any TestSoundServer) async throws -> String? {
        index(of: source, in: try await onDedicatedThread { try server.pactl("list", "sources", "short") })
    }

    /// The index of the device `name` in a short listing.
    static func index(of name: String, in listing: String) -> String? {
        for line in listing.split(separator: "\n") {
            let fields = line.split(separator: "\t")
            if fields.count >= 2, fields[1] == name { return String(fields[0]) }
        }
        return nil
    }

    /// The indices of the loaded module-echo-cancel modules.
    static func modules(_ server: any TestSoundServer) async throws -> [UInt32] {
        let list = try await onDedicatedThread { try server.pactl("list", "modules", "short") }
        return list.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: "\t")
            guard fields.count >= 2, fields[1] == "module-echo-cancel" else { return nil }
            return UInt32(fields[0])
        }
    }

    /// The sources that modules' (not clients') capture streams are on: the canceller's, and the
    /// remapped microphones' (on micfeed.monitor).
    static func devicesOfModuleCapture(_ server: any TestSoundServer) async throws -> [String] {
        try await devicesOfClientStreams(server, "source-outputs", on: "sources", ofModules: true)
    }

    /// The names of the devices that clients' (or modules') streams of `kind` are on.
    static func devicesOfClientStreams(
        _ server: any TestSoundServer, _ kind: String, on devices: String, ofModules: Bool = false
    ) async throws -> [String] {
        try await onDedicatedThread { try devicesOfStreams(server, kind, on: devices, ofModules: ofModules) }
    }

    /// `devicesOfClientStreams`, asked on the calling thread.
    static func devicesOfStreams(
        _ server: any TestSoundServer, _ kind: String, on devices: String, ofModules: Bool = false
    ) throws -> [String] {
        let (streams, names) = (try server.pactl("list", kind, "short"), try server.pactl("list", devices, "short"))
        let nameOf = Dictionary(uniqueKeysWithValues: names.split(separator: "\n").compactMap { line -> (String, String)? in
            let fields = line.split(separator: "\t")
            return fields.count >= 2 ? (String(fields[0]), String(fields[1])) : nil
        })
        // Short listing: index, device index, client index ("-" for a module's stream), format.
        return streams.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: "\t")
            guard fields.count >= 3, (fields[2] == "-") == ofModules else { return nil }
            return nameOf[String(fields[1])]
        }
    }
}
