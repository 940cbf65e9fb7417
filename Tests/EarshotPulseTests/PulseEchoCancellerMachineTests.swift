@testable import EarshotPulse
import Testing

/// The echo canceller's decisions, without a server: each row feeds inputs and checks the actions
/// the driver is told to perform.
@Suite struct PulseEchoCancellerMachineTests {
    typealias Machine = PulseEchoCancellerMachine
    typealias Masters = PulseEchoCanceller.Masters
    static let plain = Masters(source: "mic", sink: "speaker")
    static let usb = Masters(source: "usbmic", sink: "speaker")
    static let defaults = PulseServerDefaults(source: "mic", sink: "speaker")
    static let refused = PulseError(.moduleInitFailed, while: PulseEchoCanceller.loadOperation(on: usb))
    static let leftover = PulseModule(
        index: 3, name: PulseEchoCanceller.moduleName,
        argument: "aec_method=webrtc source_name=\(PulseEchoCanceller.sourceName) sink_name=\(PulseEchoCanceller.sinkName)"
    )

    /// Loaded as module 12 on `wanted`.
    static func active(_ wanted: Masters = plain) -> Machine {
        var machine = Machine(isEnabled: true)
        _ = machine.reconcile(wanted: wanted, defaults: defaults)
        _ = machine.modulesListed([])
        _ = machine.loaded(module: 12, took: .zero)
        return machine
    }

    /// Loaded as module 12 on the defaults, standing in for the missing `usb` source.
    static func activeOnTheDefaults() -> Machine {
        var machine = Machine(isEnabled: true)
        _ = machine.reconcile(wanted: usb, defaults: defaults)
        _ = machine.modulesListed([])
        _ = machine.loadRefused(refused)
        _ = machine.devicesFound(source: false, sink: true)
        _ = machine.loaded(module: 12, took: .zero)
        return machine
    }

    static func loaded(_ module: UInt32, on masters: Masters) -> [Machine.Action] {
        [.note(.loaded(module: module, on: masters, took: .zero)),
         .updateStatus(.active(module: module, source: masters.source, sink: masters.sink)), .placeStreams]
    }

    @Test func notAskedForItLoadsNothing() {
        var machine = Machine(isEnabled: false)
        #expect(machine.reconcile(wanted: Self.plain, defaults: Self.defaults) == [])
        #expect(machine.state == .idle && machine.status == nil)
        #expect(machine.stop() == [])
    }

    @Test func aConnectionUnloadsLeftoversThenLoadsAndTheStreamsFollow() {
        var machine = Machine(isEnabled: true)
        #expect(machine.reconcile(wanted: Self.plain, defaults: Self.defaults) == [.listModules])
        #expect(machine.isLoading && machine.realDevice(.capture) == "mic" && machine.device(.capture) == nil)
        #expect(machine.reconcile(wanted: Self.plain, defaults: Self.defaults) == [], "a load is under way")
        let other = PulseModule(index: 4, name: "module-null-sink", argument: "sink_name=\(PulseEchoCanceller.sinkName)")
        #expect(machine.modulesListed([Self.leftover, other]) == [.note(.removingLeftovers([3])), .unload(3)])
        #expect(machine.unloadAnswered(3, unloaded: true) == [], "acknowledged before it happens")
        #expect(machine.moduleRemoved(4) == [])
        #expect(machine.moduleRemoved(3) == [.load(on: Self.plain)])
        #expect(machine.loaded(module: 12, took: .zero) == Self.loaded(12, on: Self.plain))
        #expect(machine.status == .active(module: 12, source: "mic", sink: "speaker"))
        #expect(machine.device(.capture) == PulseEchoCanceller.sourceName && machine.device(.playback) == PulseEchoCanceller.sinkName)
    }

    @Test func aLeftoverAlreadyGoneIsNotWaitedFor() {
        var machine = Machine(isEnabled: true)
        _ = machine.reconcile(wanted: Self.plain, defaults: Self.defaults)
        _ = machine.modulesListed([Self.leftover])
        #expect(machine.unloadAnswered(3, unloaded: false) == [.load(on: Self.plain)])
    }

    @Test func noSourceOrSinkToPutItOnIsReportedOnce() {
        var machine = Machine(isEnabled: true)
        let error = PulseError(.noEntity, while: "find a source and a sink for \(PulseEchoCanceller.moduleName)")
        #expect(machine.reconcile(wanted: nil, defaults: PulseServerDefaults(source: nil, sink: "speaker"))
            == [.note(.unavailable(error)), .updateStatus(.unavailable(error)), .placeStreams])
        #expect(machine.reconcile(wanted: nil, defaults: PulseServerDefaults(source: nil, sink: "speaker")) == [])
        #expect(machine.reconcile(wanted: Self.plain, defaults: Self.defaults) == [.load(on: Self.plain)], "a source came")
    }

    @Test func aMissingWantedDeviceIsReplacedByTheDefault() {
        var machine = Machine(isEnabled: true)
        _ = machine.reconcile(wanted: Self.usb, defaults: Self.defaults)
        #expect(machine.modulesListed([]) == [.load(on: Self.usb)])
        #expect(machine.loadRefused(Self.refused) == [.findDevices(Self.usb)])
        #expect(machine.devicesFound(source: false, sink: true)
            == [.note(.standingInForMissingDevices(Self.plain, Self.refused)), .load(on: Self.plain)])
        #expect(machine.loaded(module: 12, took: .zero) == Self.loaded(12, on: Self.plain))
        #expect(machine.state == .active(module: 12, masters: Self.plain, wanted: Self.usb))
        #expect(machine.realDevice(.capture) == "mic")
    }

    @Test(arguments: [
        (true, true, "both there: the server refused them"),
        (false, true, "the default is the refused device"),
    ])
    func aRefusalThatNoDefaultCanHelpLeavesThePlainDevices(source: Bool, sink: Bool, _ why: String) {
        var machine = Machine(isEnabled: true)
        let masters = source ? Self.usb : Self.plain
        _ = machine.reconcile(wanted: masters, defaults: Self.defaults)
        _ = machine.modulesListed([])
        _ = machine.loadRefused(Self.refused)
        #expect(machine.devicesFound(source: source, sink: sink)
            == [.note(.unavailable(Self.refused)), .updateStatus(.unavailable(Self.refused)), .placeStreams], "\(why)")
        #expect(machine.state == .failed(wanted: masters, Self.refused) && machine.device(.capture) == nil)
        #expect(machine.reconcile(wanted: masters, defaults: Self.defaults) == [], "not tried again on the same devices")
        let other = Masters(source: "micfeed.monitor", sink: "speaker")
        #expect(machine.reconcile(wanted: other, defaults: Self.defaults) == [.load(on: other)], "other devices are tried")
    }

    @Test func aLoadAnsweredWithoutAnIndexFails() {
        var machine = Machine(isEnabled: true)
        _ = machine.reconcile(wanted: Self.plain, defaults: Self.defaults)
        _ = machine.modulesListed([])
        let error = PulseError(.internalError, while: PulseEchoCanceller.loadOperation(on: Self.plain))
        #expect(machine.loaded(module: nil, took: .zero) == [.note(.unavailable(error)), .updateStatus(.unavailable(error)), .placeStreams])
    }

    @Test func otherDevicesMoveTheCancellerTheSameOnesDoNot() {
        var machine = Self.active()
        #expect(machine.reconcile(wanted: Self.plain, defaults: Self.defaults) == [])
        let moved = Masters(source: "micfeed.monitor", sink: "speaker")
        #expect(machine.reconcile(wanted: moved, defaults: Self.defaults) == [.note(.moving(to: moved)), .unload(12)])
        #expect(machine.status == nil && machine.realDevice(.capture) == "micfeed.monitor")
        #expect(machine.moduleRemoved(12) == [.load(on: moved)])
        #expect(machine.loaded(module: 13, took: .zero) == Self.loaded(13, on: moved))
    }

    @Test func devicesChangedDuringALoadMoveItOnceLoadedBeforeTheStreamsFollow() {
        var machine = Machine(isEnabled: true)
        _ = machine.reconcile(wanted: Self.plain, defaults: Self.defaults)
        _ = machine.modulesListed([])
        let moved = Masters(source: "micfeed.monitor", sink: "speaker")
        #expect(machine.reconcile(wanted: moved, defaults: Self.defaults) == [])
        #expect(machine.loaded(module: 12, took: .zero) == [
            .note(.loaded(module: 12, on: Self.plain, took: .zero)),
            .updateStatus(.active(module: 12, source: "mic", sink: "speaker")),
            .note(.moving(to: moved)), .unload(12),
        ])
    }

    @Test func theWantedDeviceComingBackMovesTheCancellerOntoIt() {
        var machine = Self.activeOnTheDefaults()
        #expect(machine.deviceAppeared(.playback, index: 9) == [], "the sink is the wanted one already")
        #expect(machine.deviceAppeared(.capture, index: 9) == [.nameNewDevice(.capture, index: 9)])
        #expect(machine.newDeviceNamed(.capture, PulseEchoCanceller.sourceName) == [], "its own device")
        #expect(machine.newDeviceNamed(.capture, "usbmic") == [.note(.moving(to: Self.usb)), .unload(12)])
        var onTheWanted = Self.active()
        #expect(onTheWanted.deviceAppeared(.capture, index: 9) == [], "on the wanted devices")
    }

    @Test func unloadedUnderTheEngineItIsLoadedAgainAFewTimes() {
        var machine = Self.active()
        #expect(machine.moduleRemoved(7) == [], "another module")
        for module in UInt32(13)..<UInt32(13 + Machine.reloadLimit) {
            #expect(machine.moduleRemoved(module - 1) == [.note(.reloadingAfterUnload), .listModules])
            _ = machine.modulesListed([])
            #expect(machine.loaded(module: module, took: .zero) == Self.loaded(module, on: Self.plain))
        }
        let error = PulseError(.noEntity, while: "keep \(PulseEchoCanceller.moduleName) loaded")
        #expect(machine.moduleRemoved(12 + UInt32(Machine.reloadLimit))
            == [.note(.unavailable(error)), .updateStatus(.unavailable(error)), .placeStreams])
    }

    @Test func stoppingUnloadsAnActiveCancellerAndSaysWhenItIsDone() {
        var machine = Self.active()
        #expect(machine.stop() == [.unload(12), .awaitRelease])
        #expect(machine.device(.capture) == nil && machine.status == nil)
        #expect(machine.moduleRemoved(12) == [], "not loaded again")
        #expect(machine.unloadAnswered(12, unloaded: true) == [.releaseFinished])
        #expect(machine.stop() == [])
        #expect(machine.reconcile(wanted: Self.plain, defaults: Self.defaults) == [], "nothing loads after stopping")
    }

    @Test(arguments: [PulseEchoCancellerMachine.State.idle, .failed(wanted: PulseEchoCancellerMachineTests.plain, PulseEchoCancellerMachineTests.refused)])
    func stoppingWithNothingLoadedReleasesNothing(_ state: Machine.State) {
        var machine = Machine(isEnabled: true)
        if state != .idle {
            _ = machine.reconcile(wanted: Self.plain, defaults: Self.defaults)
            _ = machine.modulesListed([])
            _ = machine.loadRefused(Self.refused)
            _ = machine.devicesFound(source: true, sink: true)
        }
        #expect(machine.state == state)
        #expect(machine.stop() == [])
    }

    /// Stopped while a load is under way, the next answer ends it: what it loaded is unloaded.
    @Test func stoppingDuringALoadUndoesItWhenTheServerAnswers() {
        var listing = Machine(isEnabled: true)
        _ = listing.reconcile(wanted: Self.plain, defaults: Self.defaults)
        #expect(listing.stop() == [.awaitRelease])
        #expect(listing.modulesListed([Self.leftover]) == [.releaseFinished])

        var unloading = Machine(isEnabled: true)
        _ = unloading.reconcile(wanted: Self.plain, defaults: Self.defaults)
        _ = unloading.modulesListed([Self.leftover])
        #expect(unloading.stop() == [.awaitRelease])
        #expect(unloading.moduleRemoved(3) == [.releaseFinished])

        var loading = Machine(isEnabled: true)
        _ = loading.reconcile(wanted: Self.plain, defaults: Self.defaults)
        _ = loading.modulesListed([])
        #expect(loading.stop() == [.awaitRelease])
        #expect(loading.loaded(module: 12, took: .zero) == [.unload(12)])
        #expect(loading.unloadAnswered(12, unloaded: false) == [.releaseFinished])

        var refusedLoad = Machine(isEnabled: true)
        _ = refusedLoad.reconcile(wanted: Self.plain, defaults: Self.defaults)
        _ = refusedLoad.modulesListed([])
        _ = refusedLoad.stop()
        #expect(refusedLoad.loadRefused(Self.refused) == [.releaseFinished])

        var checking = Machine(isEnabled: true)
        _ = checking.reconcile(wanted: Self.usb, defaults: Self.defaults)
        _ = checking.modulesListed([])
        _ = checking.loadRefused(Self.refused)
        _ = checking.stop()
        #expect(checking.devicesFound(source: false, sink: true) == [.releaseFinished])

        var lost = Machine(isEnabled: true)
        _ = lost.reconcile(wanted: Self.plain, defaults: Self.defaults)
        _ = lost.stop()
        #expect(lost.connectionClosed() == [.releaseFinished], "the connection went before the answer: none will come")
        #expect(lost.modulesListed([]) == [])
    }

    @Test func aNewConnectionStartsOverAndTheOldOnesAnswersAreIgnored() {
        var machine = Self.active()
        #expect(machine.connectionClosed() == [])
        #expect(machine.state == .idle && machine.status == nil)
        #expect(machine.moduleRemoved(12) == [])
        #expect(machine.loaded(module: 12, took: .zero) == [])
        #expect(machine.modulesListed([]) == [])
        #expect(machine.reconcile(wanted: Self.plain, defaults: Self.defaults) == [.listModules])
    }

    @Test func theModuleArgumentsPutItOnTheMastersAtTheEnginesRate() {
        let arguments = PulseEchoCanceller.arguments(method: "webrtc", masters: Self.usb)
        #expect(arguments.hasPrefix(#"aec_method=webrtc source_master="usbmic" sink_master="speaker" "#))
        #expect(arguments.contains("source_name=\(PulseEchoCanceller.sourceName) sink_name=\(PulseEchoCanceller.sinkName)"))
        #expect(arguments.contains("rate=16000 channels=1"))
        #expect(PulseEchoCanceller.isLeftover(Self.leftover))
        #expect(!PulseEchoCanceller.isLeftover(PulseModule(index: 5, name: PulseEchoCanceller.moduleName, argument: "source_name=other")))
    }
}
