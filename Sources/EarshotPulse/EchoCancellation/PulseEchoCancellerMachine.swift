/// The echo canceller (PulseAudio's `module-echo-cancel`) on the current connection, as decisions:
/// when to load it and on which devices, what to unload first (a canceller left by an earlier run,
/// or this one before it moves), what to do when the server refuses it or unloads it under the
/// engine, and what to release on stop. It performs nothing: each input returns the actions for
/// `PulseSession` to perform in order; `PulseRoutingMachine` owns it and places the streams when
/// it settles. Tested without a server (`PulseEchoCancellerMachineTests`).
struct PulseEchoCancellerMachine: Sendable {
    typealias Masters = PulseEchoCanceller.Masters

    enum State: Equatable, Sendable {
        /// Not loaded: not wanted, or not tried yet on this connection.
        case idle
        /// Listing the server's modules, to unload cancellers left by an earlier run before loading.
        case findingLeftovers(wanted: Masters)
        /// Waiting for `modules` (leftovers, or this canceller before it moves) to be gone: the
        /// server acknowledges an unload before it happens, and a load sent right after the answer
        /// sometimes found the names still taken.
        case unloading(modules: Set<UInt32>, wanted: Masters)
        /// Being loaded on `masters`: `wanted`, or the defaults standing in for missing ones.
        case loading(on: Masters, wanted: Masters)
        /// The server refused the load on `masters`: checking which of them exist.
        case checkingDevices(masters: Masters, wanted: Masters, PulseError)
        /// Loaded as server module `module` on `masters`; `wanted` is what the routes asked for.
        case active(module: UInt32, masters: Masters, wanted: Masters)
        /// The server would not load it (`wanted` nil: there were no devices to put it on).
        case failed(wanted: Masters?, PulseError)
        /// Being unloaded for good (the engine stopped); the driver waits for the answer.
        case releasing(module: UInt32)
    }

    enum Action: Equatable, Sendable {
        /// List the server's modules and answer with `modulesListed`.
        case listModules
        /// Unload the module and answer with `unloadAnswered`.
        case unload(UInt32)
        /// Load the canceller on these devices and answer with `loaded` or `loadRefused`.
        case load(on: Masters)
        /// Ask whether the server has these devices and answer with `devicesFound`.
        case findDevices(Masters)
        /// Look up the name of the new device at this index and answer with `newDeviceNamed`.
        case nameNewDevice(PulseStreamRole, index: UInt32)
        /// The canceller settled (active or failed): the status says so.
        case updateStatus(PulseEchoCancellation)
        /// The canceller settled: the streams go where it says (its devices, or the plain ones).
        case placeStreams
        /// Keep the connection open until `releaseFinished`, or the unload request is lost.
        case awaitRelease
        /// What was loaded when the engine stopped is unloaded (or nothing was).
        case releaseFinished
        /// Only logged.
        case note(Note)
    }

    /// What the log says about the canceller.
    enum Note: Equatable, Sendable {
        case removingLeftovers([UInt32])
        case moving(to: Masters)
        case loaded(module: UInt32, on: Masters, took: Duration)
        case standingInForMissingDevices(Masters, PulseError)
        case unavailable(PulseError)
        case reloadingAfterUnload
    }

    /// Reloads the canceller unprompted (it was unloaded under the engine, or a wanted device came
    /// back) at most this often per connection, so a server that keeps refusing cannot loop.
    static let reloadLimit = 5

    /// Whether the configuration asks for the canceller at all.
    let isEnabled: Bool
    private(set) var state = State.idle
    /// Unprompted reloads on this connection.
    private var reloads = 0
    private var isStopped = false
    /// The devices the routes want (nil: no source or no sink to put it on) and the server's
    /// defaults, as of the last `reconcile`; nil until the server's defaults are known.
    private var devices: (wanted: Masters?, defaults: PulseServerDefaults)?

    init(isEnabled: Bool) {
        self.isEnabled = isEnabled
    }

    var isActive: Bool { if case .active = state { true } else { false } }

    var isLoading: Bool {
        switch state {
        case .findingLeftovers, .unloading, .loading, .checkingDevices: true
        case .idle, .active, .failed, .releasing: false
        }
    }

    /// The canceller's device for `role` while it is active: the engine's stream goes there.
    func device(_ role: PulseStreamRole) -> String? {
        isActive ? PulseEchoCanceller.device(role) : nil
    }

    /// The real device for `role` it sits on, or is being loaded onto.
    func realDevice(_ role: PulseStreamRole) -> String? {
        switch state {
        case .active(_, let masters, _): masters.device(role)
        case .findingLeftovers(let wanted), .unloading(_, let wanted), .loading(_, let wanted),
             .checkingDevices(_, let wanted, _):
            wanted.device(role)
        case .idle, .failed, .releasing: nil
        }
    }

    /// What the status says; nil while nothing is settled (the last word stands).
    var status: PulseEchoCancellation? {
        switch state {
        case .idle, .findingLeftovers, .unloading, .loading, .checkingDevices, .releasing: nil
        case .active(let module, let masters, _): .active(module: module, source: masters.source, sink: masters.sink)
        case .failed(_, let error): .unavailable(error)
        }
    }

    // MARK: Inputs

    /// The routes or the server's defaults may have changed: loads or moves the canceller so
    /// that it sits on `wanted`. `retry` also moves one that sits on the defaults because the
    /// wanted devices were missing.
    mutating func reconcile(wanted: Masters?, defaults: PulseServerDefaults, retry: Bool = false) -> [Action] {
        devices = (wanted, defaults)
        return reconcile(retry: retry)
    }

    /// The modules on the server (none when the listing failed).
    mutating func modulesListed(_ modules: [PulseModule]) -> [Action] {
        guard case .findingLeftovers(let wanted) = state else { return [] }
        guard !isStopped else { return abandonLoad(loaded: nil) }
        let leftovers = modules.filter(PulseEchoCanceller.isLeftover).map(\.index)
        return (leftovers.isEmpty ? [] : [.note(.removingLeftovers(leftovers))]) + unloadThenLoad(leftovers, wanted)
    }

    /// The server answered an unload: `unloaded` false when it refused (the module was already
    /// gone, and no removal event follows).
    mutating func unloadAnswered(_ module: UInt32, unloaded: Bool) -> [Action] {
        switch state {
        case .unloading:
            return unloaded ? [] : moduleGone(module)
        case .releasing(let releasing) where releasing == module:
            state = .idle
            return [.releaseFinished]
        default:
            return []
        }
    }

    /// A module went away: one being unloaded before a load, or the canceller itself (unloaded by
    /// someone else, or by the server because its device disappeared), which is loaded again.
    mutating func moduleRemoved(_ index: UInt32) -> [Action] {
        if case .unloading = state { return moduleGone(index) }
        guard case .active(let module, _, let wanted) = state, module == index else { return [] }
        guard reloads < Self.reloadLimit else {
            return fail(wanted: wanted, PulseError(.noEntity, while: "keep \(PulseEchoCanceller.moduleName) loaded"))
        }
        reloads += 1
        state = .idle
        return [.note(.reloadingAfterUnload)] + reconcile()
    }

    /// The server answered the load with the module's index (nil: an answer without one).
    mutating func loaded(module: UInt32?, took: Duration) -> [Action] {
        guard case .loading(let masters, let wanted) = state else { return [] }
        guard !isStopped else { return abandonLoad(loaded: module) }
        guard let module else {
            return fail(wanted: wanted, PulseError(.internalError, while: PulseEchoCanceller.loadOperation(on: masters)))
        }
        state = .active(module: module, masters: masters, wanted: wanted)
        return [.note(.loaded(module: module, on: masters, took: took))] + settle()
    }

    /// The server refused the load: a wanted device may be missing.
    mutating func loadRefused(_ error: PulseError) -> [Action] {
        guard case .loading(let masters, let wanted) = state else { return [] }
        guard !isStopped else { return abandonLoad(loaded: nil) }
        state = .checkingDevices(masters: masters, wanted: wanted, error)
        return [.findDevices(masters)]
    }

    /// Whether the refused load's source and sink exist. A missing one is replaced by the default,
    /// as it would be without the canceller; when both are there the refusal stands and the
    /// devices are used without the canceller: the choice of device comes first.
    mutating func devicesFound(source sourceExists: Bool, sink sinkExists: Bool) -> [Action] {
        guard case .checkingDevices(let masters, let wanted, let error) = state else { return [] }
        guard !isStopped else { return abandonLoad(loaded: nil) }
        let defaults = devices?.defaults
        let source = sourceExists ? masters.source : defaults?.source
        let sink = sinkExists ? masters.sink : defaults?.sink
        guard let source, let sink, source != masters.source || sink != masters.sink else {
            return fail(wanted: wanted, error)
        }
        let standIn = Masters(source: source, sink: sink)
        state = .loading(on: standIn, wanted: wanted)
        return [.note(.standingInForMissingDevices(standIn, error)), .load(on: standIn)]
    }

    /// A device of `role`'s kind appeared at `index`: if the canceller sits on the default because
    /// the wanted one was missing, its name says whether the wanted one is back.
    mutating func deviceAppeared(_ role: PulseStreamRole, index: UInt32) -> [Action] {
        guard case .active(_, let masters, let wanted) = state, masters.device(role) != wanted.device(role),
              reloads < Self.reloadLimit else { return [] }
        return [.nameNewDevice(role, index: index)]
    }

    /// The name of a device that appeared; the canceller's own devices appear too, whenever it
    /// loads: only the wanted one counts.
    mutating func newDeviceNamed(_ role: PulseStreamRole, _ name: String) -> [Action] {
        guard case .active(_, _, let wanted) = state, name == wanted.device(role) else { return [] }
        reloads += 1
        return reconcile(retry: true)
    }

    /// The engine stops: unloads the canceller for good, or waits for a load under way to answer
    /// and then unloads what it loaded.
    mutating func stop() -> [Action] {
        guard !isStopped else { return [] }
        isStopped = true
        switch state {
        case .active(let module, _, _):
            state = .releasing(module: module)
            return [.unload(module), .awaitRelease]
        case .findingLeftovers, .unloading, .loading, .checkingDevices:
            return [.awaitRelease]
        case .idle, .failed, .releasing:
            return []
        }
    }

    /// The connection is gone. A module loaded on the server stays with the server: gone if it
    /// died, and removed as a leftover by the next connection if only the connection was lost.
    /// A stop waiting for the server's answer has nothing left to wait for.
    mutating func connectionClosed() -> [Action] {
        let wasReleasing: Bool
        if case .releasing = state { wasReleasing = true } else { wasReleasing = isStopped && isLoading }
        state = .idle
        reloads = 0
        devices = nil
        return wasReleasing ? [.releaseFinished] : []
    }

    // MARK: Steps

    private mutating func reconcile(retry: Bool = false) -> [Action] {
        guard isEnabled, !isStopped, let devices else { return [] }
        guard let wanted = devices.wanted else {
            if case .failed(nil, _) = state { return [] }
            let error = PulseError(.noEntity, while: "find a source and a sink for \(PulseEchoCanceller.moduleName)")
            return fail(wanted: nil, error)
        }
        switch state {
        case .idle:
            state = .findingLeftovers(wanted: wanted)
            return [.listModules]
        case .findingLeftovers, .unloading, .loading, .checkingDevices, .releasing:
            return []  // A load under way reconciles again once it settles.
        case .active(let module, let masters, let previous):
            guard wanted != previous || (retry && masters != wanted) else { return [] }
            return [.note(.moving(to: wanted))] + unloadThenLoad([module], wanted)
        case .failed(let previous, _):
            guard wanted != previous else { return [] }
            state = .loading(on: wanted, wanted: wanted)
            return [.load(on: wanted)]
        }
    }

    private mutating func unloadThenLoad(_ modules: [UInt32], _ wanted: Masters) -> [Action] {
        guard !modules.isEmpty else {
            state = .loading(on: wanted, wanted: wanted)
            return [.load(on: wanted)]
        }
        state = .unloading(modules: Set(modules), wanted: wanted)
        return modules.map { .unload($0) }
    }

    /// One of the modules being unloaded before a load is gone; the last one lets the load go on.
    private mutating func moduleGone(_ module: UInt32) -> [Action] {
        guard case .unloading(var modules, let wanted) = state, modules.remove(module) != nil else { return [] }
        state = .unloading(modules: modules, wanted: wanted)
        guard modules.isEmpty else { return [] }
        guard !isStopped else { return abandonLoad(loaded: nil) }
        state = .loading(on: wanted, wanted: wanted)
        return [.load(on: wanted)]
    }

    private mutating func fail(wanted: Masters?, _ error: PulseError) -> [Action] {
        state = .failed(wanted: wanted, error)
        return [.note(.unavailable(error))] + settle()
    }

    /// Active or failed: the status says so, the routes may have changed while it was loading,
    /// and then the streams go where it says.
    private mutating func settle() -> [Action] {
        var actions: [Action] = status.map { [.updateStatus($0)] } ?? []
        actions += reconcile()
        return isLoading ? actions : actions + [.placeStreams]
    }

    /// A step of a load answered after the engine stopped: unload what it loaded, then let the
    /// stop go on.
    private mutating func abandonLoad(loaded module: UInt32?) -> [Action] {
        guard let module else {
            state = .idle
            return [.releaseFinished]
        }
        state = .releasing(module: module)
        return [.unload(module)]
    }
}
