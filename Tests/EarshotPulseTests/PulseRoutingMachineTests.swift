@testable import EarshotPulse
import Testing

/// Which device each stream uses, without a server: each row feeds inputs and checks the actions
/// the driver is told to perform.
@Suite struct PulseRoutingMachineTests {
    typealias Machine = PulseRoutingMachine
    static let defaults = PulseServerDefaults(source: "mic", sink: "speaker")
    static let echoSource = PulseEchoCanceller.sourceName
    static let echoSink = PulseEchoCanceller.sinkName
    static let plain = PulseEchoCanceller.Masters(source: "mic", sink: "speaker")
    static let gone = PulseError(.noEntity, while: "capture from \"usbmic\"")

    /// Connected, both streams ready on their targets.
    static func connected(source: String? = nil, sink: String? = nil, echoCancellation: Bool = false) -> Machine {
        var machine = Machine(source: source, sink: sink, echoCancellation: echoCancellation)
        _ = machine.serverInfoArrived(defaults)
        if echoCancellation {
            _ = machine.echo { $0.modulesListed([]) }
            _ = machine.echo { $0.loaded(module: 12, took: .zero) }
        }
        _ = machine.streamReady(.capture, on: machine.target(.capture))
        _ = machine.streamReady(.playback, on: machine.target(.playback))
        _ = machine.connectionMade()
        return machine
    }

    @Test func theServersDefaultsOpenTheStreamsAndBothReadyMakeTheConnection() {
        var machine = Machine(source: nil, sink: nil, echoCancellation: false)
        #expect(machine.serverInfoArrived(Self.defaults) == [.open(.capture, on: "mic"), .open(.playback, on: "speaker")])
        #expect(machine.streamReady(.capture, on: "mic") == [], "playback is still opening")
        #expect(machine.streamReady(.playback, on: "speaker") == [.streamsReady])
        #expect(machine.connectionMade() == [.reportConnected(source: "mic", sink: "speaker", echoCancellation: .off)])
        #expect(machine.streamReady(.capture, on: "mic") == [], "reported once")
    }

    @Test func requestedDevicesAreOpenedInsteadOfTheDefaults() {
        var machine = Machine(source: "usbmic", sink: "headset", echoCancellation: false)
        #expect(machine.serverInfoArrived(Self.defaults) == [.open(.capture, on: "usbmic"), .open(.playback, on: "headset")])
    }

    @Test func aServerWithoutDefaultsLeavesTheChoiceToItAndTheStreamsMoveWhenOneAppears() {
        var machine = Machine(source: nil, sink: nil, echoCancellation: false)
        #expect(machine.serverInfoArrived(PulseServerDefaults(source: nil, sink: nil)) == [.open(.capture, on: nil), .open(.playback, on: nil)])
        _ = machine.streamReady(.playback, on: "speaker")
        #expect(machine.serverInfoArrived(Self.defaults) == [], "playback is on the new default already, capture still opening")
        #expect(machine.streamReady(.capture, on: "monitor") == [.streamsReady, .move(.capture, to: "mic")])
    }

    @Test func streamsOnTheDefaultFollowItAndRequestedOnesStay() {
        var following = Self.connected()
        let moved = PulseServerDefaults(source: "micfeed.monitor", sink: "micfeed")
        #expect(following.serverInfoArrived(moved) == [.move(.capture, to: "micfeed.monitor"), .move(.playback, to: "micfeed")])
        #expect(following.streamMoved(.capture, to: "micfeed.monitor") == [
            .updateStatus(source: "micfeed.monitor", sink: "speaker", echoCancellation: nil),
            .reportDeviceChanged(.capture, "micfeed.monitor"),
        ])
        #expect(following.streamMoved(.capture, to: "micfeed.monitor") == [], "already reported")

        var staying = Self.connected(source: "usbmic")
        #expect(staying.serverInfoArrived(moved) == [.move(.playback, to: "micfeed")])
    }

    @Test func aStreamReadyOnAnotherDeviceThanItsTargetIsMoved() {
        var machine = Machine(source: nil, sink: nil, echoCancellation: false)
        _ = machine.serverInfoArrived(Self.defaults)
        #expect(machine.serverInfoArrived(PulseServerDefaults(source: "micfeed.monitor", sink: "speaker")) == [], "still opening")
        #expect(machine.streamReady(.capture, on: "mic") == [.move(.capture, to: "micfeed.monitor")])
    }

    @Test func aFailedRequestedDeviceFallsBackToTheDefault() {
        var machine = Machine(source: "usbmic", sink: nil, echoCancellation: false)
        _ = machine.serverInfoArrived(Self.defaults)
        #expect(machine.streamFailed(.capture, Self.gone) == [
            .noteFallback(.capture, from: "usbmic", to: "mic", Self.gone), .open(.capture, on: "mic"),
        ])
        #expect(machine.route(.capture).openedOn == "mic" && machine.route(.capture).requested == "usbmic")
    }

    @Test func captureFailingOnTheDefaultLosesTheConnection() {
        var machine = Machine(source: nil, sink: nil, echoCancellation: false)
        _ = machine.serverInfoArrived(Self.defaults)
        #expect(machine.streamFailed(.capture, Self.gone) == [.loseConnection(Self.gone)])
        var noDefault = Machine(source: "usbmic", sink: nil, echoCancellation: false)
        _ = noDefault.serverInfoArrived(PulseServerDefaults(source: nil, sink: "speaker"))
        #expect(noDefault.streamFailed(.capture, Self.gone) == [.loseConnection(Self.gone)])
    }

    @Test func playbackFailingOnTheDefaultDoesNotKeepTheMicrophoneOff() {
        let error = PulseError(.noEntity, while: "play on the default sink")
        var capturing = Machine(source: nil, sink: nil, echoCancellation: false)
        _ = capturing.serverInfoArrived(Self.defaults)
        _ = capturing.streamReady(.capture, on: "mic")
        #expect(capturing.streamFailed(.playback, error) == [.noteNoPlayback(error), .streamsReady])
        #expect(capturing.connectionMade() == [.reportConnected(source: "mic", sink: "speaker", echoCancellation: .off)],
                "the sink it would use")

        var notYet = Machine(source: nil, sink: nil, echoCancellation: false)
        _ = notYet.serverInfoArrived(Self.defaults)
        #expect(notYet.streamFailed(.playback, error) == [.noteNoPlayback(error)])
        #expect(notYet.streamReady(.capture, on: "mic") == [.streamsReady])
    }

    @Test func aRequestedDeviceComingBackGetsItsStreamBack() {
        var machine = Self.connected(source: "usbmic")
        #expect(machine.deviceAdded(.capture, index: 9) == [.reportDevicesChanged], "on it already")
        _ = machine.streamMoved(.capture, to: "mic")
        #expect(machine.deviceRemoved(.capture) == [.reportDevicesChanged])
        #expect(machine.deviceAdded(.capture, index: 9) == [.reportDevicesChanged, .move(.capture, to: "usbmic")])
        #expect(machine.deviceAdded(.playback, index: 10) == [.reportDevicesChanged], "playback follows the default")

        var connecting = Machine(source: "usbmic", sink: nil, echoCancellation: false)
        _ = connecting.serverInfoArrived(Self.defaults)
        #expect(connecting.deviceAdded(.capture, index: 9) == [], "not reported, and the stream is still opening")
        #expect(connecting.deviceRemoved(.capture) == [])
    }

    @Test func selectingADeviceMovesTheStreamAndAnswersWithIt() {
        var machine = Self.connected()
        #expect(machine.select(.capture, "speaker.monitor") == [.moveThenAnswer(.capture, to: "speaker.monitor")])
        #expect(machine.route(.capture).requested == "speaker.monitor")
        _ = machine.streamMoved(.capture, to: "speaker.monitor")
        #expect(machine.select(.capture, "speaker.monitor") == [.answerSelection(.success("speaker.monitor"))], "there already")
        #expect(machine.select(.capture, nil) == [.moveThenAnswer(.capture, to: "mic")], "back to the default")

        var opening = Machine(source: nil, sink: nil, echoCancellation: false)
        _ = opening.serverInfoArrived(Self.defaults)
        #expect(opening.select(.playback, "micfeed") == [.answerSelection(.success("micfeed"))], "moves there once ready")
        #expect(opening.streamReady(.playback, on: "speaker") == [.move(.playback, to: "micfeed")])
    }

    @Test func selectingWithoutAServerIsRefusedButRemembered() {
        var machine = Machine(source: nil, sink: nil, echoCancellation: false)
        #expect(machine.select(.capture, "usbmic") == [
            .answerSelection(.failure(PulseError(.connectionRefused, while: "use the source \"usbmic\""))),
        ])
        #expect(machine.serverInfoArrived(Self.defaults).first == .open(.capture, on: "usbmic"))

        var noDefault = Machine(source: nil, sink: nil, echoCancellation: false)
        _ = noDefault.serverInfoArrived(PulseServerDefaults(source: nil, sink: "speaker"))
        #expect(noDefault.select(.capture, nil) == [
            .answerSelection(.failure(PulseError(.noEntity, while: "use the source the server's default"))),
        ])
    }

    @Test func aLostConnectionForgetsEverythingButTheRequests() {
        var machine = Self.connected(source: "usbmic")
        #expect(machine.connectionClosed() == [])
        #expect(!machine.isConnected && machine.defaults == nil)
        #expect(machine.route(.capture) == Machine.Route(requested: "usbmic"))
        #expect(machine.streamMoved(.capture, to: "mic") == [], "not reported while disconnected")
        #expect(machine.serverInfoArrived(Self.defaults) == [.open(.capture, on: "usbmic"), .open(.playback, on: "speaker")])
    }

    // MARK: With the echo canceller

    @Test func theStreamsWaitForTheCancellerAndOpenOnIt() {
        var machine = Machine(source: nil, sink: nil, echoCancellation: true)
        #expect(machine.serverInfoArrived(Self.defaults) == [.echoCanceller(.listModules)])
        #expect(machine.echo { $0.modulesListed([]) } == [.echoCanceller(.load(on: Self.plain))])
        #expect(machine.echo { $0.loaded(module: 12, took: .zero) } == [
            .echoCanceller(.note(.loaded(module: 12, on: Self.plain, took: .zero))),
            .open(.capture, on: Self.echoSource), .open(.playback, on: Self.echoSink),
        ])
        _ = machine.streamReady(.capture, on: Self.echoSource)
        #expect(machine.streamReady(.playback, on: Self.echoSink) == [.streamsReady])
        #expect(machine.connectionMade() == [.reportConnected(
            source: Self.echoSource, sink: Self.echoSink, echoCancellation: .active(module: 12, source: "mic", sink: "speaker")
        )])
    }

    @Test func aCancellerThatWillNotLoadLeavesThePlainDevices() {
        var machine = Machine(source: nil, sink: nil, echoCancellation: true)
        _ = machine.serverInfoArrived(Self.defaults)
        _ = machine.echo { $0.modulesListed([]) }
        let refused = PulseError(.moduleInitFailed, while: PulseEchoCanceller.loadOperation(on: Self.plain))
        #expect(machine.echo { $0.loadRefused(refused) } == [.echoCanceller(.findDevices(Self.plain))])
        #expect(machine.echo { $0.devicesFound(source: true, sink: true) } == [
            .echoCanceller(.note(.unavailable(refused))), .open(.capture, on: "mic"), .open(.playback, on: "speaker"),
        ])
        _ = machine.streamReady(.capture, on: "mic")
        _ = machine.streamReady(.playback, on: "speaker")
        #expect(machine.connectionMade() == [.reportConnected(source: "mic", sink: "speaker", echoCancellation: .unavailable(refused))])
    }

    @Test func selectingADeviceMovesTheCancellerAndTheStreamStaysOnIt() {
        var machine = Self.connected(echoCancellation: true)
        let moved = PulseEchoCanceller.Masters(source: "micfeed.monitor", sink: "speaker")
        #expect(machine.select(.capture, "micfeed.monitor") == [
            .echoCanceller(.note(.moving(to: moved))), .echoCanceller(.unload(12)), .answerSelection(.success("micfeed.monitor")),
        ])
        #expect(machine.select(.playback, nil) == [.answerSelection(.success("speaker"))], "while it moves")
        #expect(machine.echo { $0.moduleRemoved(12) } == [.echoCanceller(.load(on: moved))])
        #expect(machine.echo { $0.loaded(module: 13, took: .zero) } == [
            .echoCanceller(.note(.loaded(module: 13, on: moved, took: .zero))),
            .updateStatus(source: Self.echoSource, sink: Self.echoSink, echoCancellation: .active(module: 13, source: "micfeed.monitor", sink: "speaker")),
        ])
    }

    /// PipeWire answers the canceller's load before its devices exist: a stream moved off the old
    /// canceller meanwhile cannot be moved back yet (no such entity), and goes when they appear.
    @Test func aStreamThatCouldNotGoBackToTheCancellerGoesWhenItsDeviceAppears() {
        var machine = Self.connected(echoCancellation: true)
        _ = machine.streamMoved(.capture, to: "mic")
        #expect(machine.deviceAdded(.capture, index: 40) == [.reportDevicesChanged, .move(.capture, to: Self.echoSource)])
        _ = machine.streamMoved(.capture, to: Self.echoSource)
        #expect(machine.deviceAdded(.capture, index: 41) == [.reportDevicesChanged], "on it already")
        #expect(machine.deviceAdded(.playback, index: 42) == [.reportDevicesChanged], "playback never left it")
    }

    /// PipeWire's session manager moves the streams off a reloaded canceller after the engine has
    /// placed them on it (the first canceller's devices went away late): they go back.
    @Test func aStreamMovedOffTheActiveCancellerGoesBack() {
        var machine = Self.connected(echoCancellation: true)
        let active = PulseEchoCancellation.active(module: 12, source: "mic", sink: "speaker")
        #expect(machine.streamMoved(.capture, to: "mic") == [
            .updateStatus(source: "mic", sink: Self.echoSink, echoCancellation: active),
            .reportDeviceChanged(.capture, "mic"), .move(.capture, to: Self.echoSource),
        ])
        #expect(machine.streamMoved(.capture, to: Self.echoSource) == [
            .updateStatus(source: Self.echoSource, sink: Self.echoSink, echoCancellation: active),
            .reportDeviceChanged(.capture, Self.echoSource),
        ])
        var plain = Self.connected()
        #expect(plain.streamMoved(.capture, to: "micfeed.monitor").allSatisfy { if case .move = $0 { false } else { true } },
                "a stream moved off a plain device stays where the server put it")
    }

    @Test func aCancellerGivenUpOnSendsTheStreamsBackToThePlainDevices() {
        var machine = Self.connected(echoCancellation: true)
        for module in UInt32(12)..<UInt32(12 + PulseEchoCancellerMachine.reloadLimit) {
            _ = machine.echo { $0.moduleRemoved(module) }
            _ = machine.echo { $0.modulesListed([]) }
            _ = machine.echo { $0.loaded(module: module + 1, took: .zero) }
        }
        let error = PulseError(.noEntity, while: "keep \(PulseEchoCanceller.moduleName) loaded")
        #expect(machine.echo { $0.moduleRemoved(12 + UInt32(PulseEchoCancellerMachine.reloadLimit)) } == [
            .echoCanceller(.note(.unavailable(error))),
            .updateStatus(source: Self.echoSource, sink: Self.echoSink, echoCancellation: .unavailable(error)),
            .move(.capture, to: "mic"), .move(.playback, to: "speaker"),
        ])
    }

    @Test func newDevicesGoToTheCancellerWhileItIsActiveAndWaitWhileItLoads() {
        var onDefaults = Machine(source: "usbmic", sink: nil, echoCancellation: true)
        _ = onDefaults.serverInfoArrived(Self.defaults)
        _ = onDefaults.echo { $0.modulesListed([]) }
        let usb = PulseEchoCanceller.Masters(source: "usbmic", sink: "speaker")
        _ = onDefaults.echo { $0.loadRefused(PulseError(.moduleInitFailed, while: PulseEchoCanceller.loadOperation(on: usb))) }
        _ = onDefaults.echo { $0.devicesFound(source: false, sink: true) }
        #expect(onDefaults.deviceAdded(.capture, index: 9) == [], "loading: the load settles it")
        _ = onDefaults.echo { $0.loaded(module: 12, took: .zero) }
        #expect(onDefaults.deviceAdded(.capture, index: 9) == [.echoCanceller(.nameNewDevice(.capture, index: 9))])
        #expect(onDefaults.echo { $0.newDeviceNamed(.capture, "usbmic") } == [
            .echoCanceller(.note(.moving(to: usb))), .echoCanceller(.unload(12)),
        ])
    }

    @Test func stoppingReleasesTheCancellerAndReportsNothingMore() {
        var machine = Self.connected(echoCancellation: true)
        #expect(machine.stop() == [.echoCanceller(.unload(12)), .echoCanceller(.awaitRelease)])
        #expect(!machine.isConnected && machine.route(.capture).stream == .closed)
        #expect(machine.deviceRemoved(.capture) == [])
        #expect(machine.echo { $0.unloadAnswered(12, unloaded: true) } == [.echoCanceller(.releaseFinished)])
        #expect(machine.connectionClosed() == [], "nothing left to release")

        var lostWhileReleasing = Self.connected(echoCancellation: true)
        _ = lostWhileReleasing.stop()
        #expect(lostWhileReleasing.connectionClosed() == [.echoCanceller(.releaseFinished)], "no answer will come")

        var plain = Self.connected()
        #expect(plain.stop() == [])
    }
}
