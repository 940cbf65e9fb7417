/// Which source and sink the engine's streams use, as decisions: the requested devices, the
/// server's defaults when none was requested (followed as they change), the default again when a
/// stream on a requested device fails, the requested device again when it comes back, and the
/// echo canceller's devices while it is active (`PulseEchoCancellerMachine`, owned here because
/// the streams wait for it). It performs nothing: each input returns the actions for
/// `PulseSession` to perform in order. Tested without a server (`PulseRoutingMachineTests`).
struct PulseRoutingMachine: Sendable {
    enum StreamState: Equatable, Sendable {
        case closed
        case opening
        case ready
    }

    /// Which device one of the engine's streams should use and which it is on.
    struct Route: Equatable, Sendable {
        /// The device asked for; nil follows the server's default.
        var requested: String?
        /// The device the stream is on, as last reported to the daemon; nil while there is none.
        var current: String?
        var stream = StreamState.closed
        /// The device the stream was opened on (nil: the server's choice), to tell a failed
        /// requested device from a failed default.
        var openedOn: String?
    }

    enum Action: Equatable, Sendable {
        /// Open the stream of `role` on the device (nil: the server's choice); answer with
        /// `streamReady` or `streamFailed`.
        case open(PulseStreamRole, on: String?)
        /// Move the open stream of `role` to the device (a failure is only logged).
        case move(PulseStreamRole, to: String)
        /// Capture runs and playback is ready or has given up: tell the connection machine.
        case streamsReady
        /// Capture failed with no device to fall back on: the connection is lost.
        case loseConnection(PulseError)
        /// Tell the daemon the connection is made, on these devices.
        case reportConnected(source: String, sink: String, echoCancellation: PulseEchoCancellation)
        /// The status shows these devices (and the canceller, when it has settled).
        case updateStatus(source: String?, sink: String?, echoCancellation: PulseEchoCancellation?)
        /// Tell the daemon the stream of `role` is now on this device.
        case reportDeviceChanged(PulseStreamRole, String)
        /// Tell the daemon a source or sink appeared or disappeared.
        case reportDevicesChanged
        /// Only logged: the stream of `role` failed on `from` and is opened on the default `to`.
        case noteFallback(PulseStreamRole, from: String?, to: String, PulseError)
        /// Only logged: there is no sink to play on; the next server change tries again.
        case noteNoPlayback(PulseError)
        /// Answer the `select` that returned this action.
        case answerSelection(Result<String, PulseError>)
        /// Move the stream of `role` to the device, then answer the `select` with the device.
        case moveThenAnswer(PulseStreamRole, to: String)
        /// The echo canceller's own action, for the driver to perform.
        case echoCanceller(PulseEchoCancellerMachine.Action)
    }

    private(set) var capture: Route
    private(set) var playback: Route
    /// The server's defaults, known once its info has arrived on this connection.
    private(set) var defaults: PulseServerDefaults?
    /// The connection was reported to the daemon: device changes are reported too.
    private(set) var isConnected = false
    private(set) var echoCanceller: PulseEchoCancellerMachine

    init(source: String?, sink: String?, echoCancellation: Bool) {
        capture = Route(requested: source)
        playback = Route(requested: sink)
        echoCanceller = PulseEchoCancellerMachine(isEnabled: echoCancellation)
    }

    func route(_ role: PulseStreamRole) -> Route {
        switch role {
        case .capture: capture
        case .playback: playback
        }
    }

    /// The device a stream of `role` would use without the canceller: requested or default.
    func plainTarget(_ role: PulseStreamRole) -> String? {
        route(role).requested ?? defaults?.device(role)
    }

    /// The device a stream of `role` should be on now: the echo canceller's while it is active.
    func target(_ role: PulseStreamRole) -> String? {
        echoCanceller.device(role) ?? plainTarget(role)
    }

    // MARK: Inputs

    /// The server's defaults arrived: the first time on a connection the streams open (after the
    /// canceller, when it loads); later (the defaults may have changed) streams that follow the
    /// default move.
    mutating func serverInfoArrived(_ defaults: PulseServerDefaults) -> [Action] {
        self.defaults = defaults
        let actions = reconcileEchoCanceller()
        guard !echoCanceller.isLoading else { return actions }
        return actions + placeStreams(force: false)
    }

    /// The stream of `role` became ready on `device`.
    mutating func streamReady(_ role: PulseStreamRole, on device: String?) -> [Action] {
        update(role) { $0.stream = .ready }
        var actions = deviceInUse(role, device) + streamsReadyIfReady()
        // The target may have changed while the stream was being set up.
        if let target = target(role), target != device { actions.append(.move(role, to: target)) }
        return actions
    }

    /// The server moved the stream of `role` to `device` (on request, or because its device went).
    /// Moved off the active canceller's device, it goes back there: when the canceller is unloaded
    /// under the engine, PipeWire's session manager moves the streams off it only after the engine
    /// has loaded it again and placed them (PulseAudio moves them before), which left them on the
    /// plain devices while the canceller was reported active.
    mutating func streamMoved(_ role: PulseStreamRole, to device: String?) -> [Action] {
        let actions = deviceInUse(role, device)
        guard let canceller = echoCanceller.device(role), let device, device != canceller, route(role).stream == .ready else {
            return actions
        }
        return actions + [.move(role, to: canceller)]
    }

    /// The stream of `role` could not be opened or failed while the server stayed up.
    mutating func streamFailed(_ role: PulseStreamRole, _ error: PulseError) -> [Action] {
        let device = route(role).openedOn
        update(role) { $0.stream = .closed }
        if let fallback = defaults?.device(role), fallback != device {
            return [.noteFallback(role, from: device, to: fallback, error)] + open(role, on: fallback)
        }
        if role == .capture { return [.loseConnection(error)] }
        return [.noteNoPlayback(error)] + streamsReadyIfReady()
    }

    /// A device of `role`'s kind appeared at `index`: the requested one may be back. With the
    /// canceller active it may be the canceller's own: PipeWire answers the load before its devices
    /// exist, so a stream its session manager moved off the old canceller meanwhile could not be
    /// moved back (no such entity) and goes back now.
    mutating func deviceAdded(_ role: PulseStreamRole, index: UInt32) -> [Action] {
        let report: [Action] = isConnected ? [.reportDevicesChanged] : []
        if echoCanceller.isActive {
            let stray: [Action] = route(role).stream == .ready && route(role).current != target(role)
                ? target(role).map { [.move(role, to: $0)] } ?? [] : []
            return report + stray + absorb(echoCanceller.deviceAppeared(role, index: index))
        }
        guard !echoCanceller.isLoading, let requested = route(role).requested, requested != route(role).current,
              route(role).stream == .ready else { return report }
        return report + [.move(role, to: requested)]
    }

    /// A device of `role`'s kind disappeared (the server moves streams off it by itself).
    mutating func deviceRemoved(_ role: PulseStreamRole) -> [Action] {
        isConnected ? [.reportDevicesChanged] : []
    }

    /// Requests `name` for `role` (nil: follow the default); answers with the device now in use.
    mutating func select(_ role: PulseStreamRole, _ name: String?) -> [Action] {
        let operation = "use the \(role.deviceKind) \(name.map { "\"\($0)\"" } ?? "the server's default")"
        update(role) { $0.requested = name }
        guard defaults != nil else { return [.answerSelection(.failure(PulseError(.connectionRefused, while: operation)))] }
        let actions = reconcileEchoCanceller()
        // With the canceller the stream stays on it, which now sits (or is being put) on the device.
        if let device = echoCanceller.realDevice(role) { return actions + [.answerSelection(.success(device))] }
        guard let target = target(role) else {
            return actions + [.answerSelection(.failure(PulseError(.noEntity, while: operation)))]
        }
        guard route(role).stream == .ready, route(role).current != target else {
            // Already there, or the stream is being opened and moves there once ready.
            return actions + [.answerSelection(.success(target))]
        }
        return actions + [.moveThenAnswer(role, to: target)]
    }

    /// An input for the echo canceller (an answer from the server, or a module removed); the
    /// streams follow when it settles.
    mutating func echo(_ input: (inout PulseEchoCancellerMachine) -> [PulseEchoCancellerMachine.Action]) -> [Action] {
        absorb(input(&echoCanceller))
    }

    /// The connection machine reported the connection made.
    mutating func connectionMade() -> [Action] {
        isConnected = true
        if playback.current == nil { playback.current = plainTarget(.playback) }
        return [.reportConnected(
            source: capture.current ?? "", sink: playback.current ?? "", echoCancellation: echoCanceller.status ?? .off
        )]
    }

    /// The connection is gone (lost or closed): nothing of it is left, except the requests.
    mutating func connectionClosed() -> [Action] {
        for role in [PulseStreamRole.capture, .playback] {
            update(role) { $0 = Route(requested: $0.requested) }
        }
        defaults = nil
        isConnected = false
        return absorb(echoCanceller.connectionClosed())
    }

    /// The engine stops: the streams are closed (without reporting it) and the canceller released.
    mutating func stop() -> [Action] {
        isConnected = false
        capture.stream = .closed
        playback.stream = .closed
        return absorb(echoCanceller.stop())
    }

    // MARK: Steps

    private mutating func update(_ role: PulseStreamRole, _ change: (inout Route) -> Void) {
        switch role {
        case .capture: change(&capture)
        case .playback: change(&playback)
        }
    }

    private mutating func open(_ role: PulseStreamRole, on device: String?) -> [Action] {
        update(role) { $0.stream = .opening; $0.openedOn = device }
        return [.open(role, on: device)]
    }

    /// Opens the streams not open yet on their targets and moves open ones that follow the
    /// default (all of them when `force`) to their targets.
    private mutating func placeStreams(force: Bool) -> [Action] {
        var actions: [Action] = []
        for role in [PulseStreamRole.capture, .playback] {
            let route = route(role)
            guard route.stream != .closed else {
                actions += open(role, on: target(role))
                continue
            }
            let follows = force || route.requested == nil || echoCanceller.device(role) != nil
            if follows, route.stream == .ready, let target = target(role), target != route.current {
                actions.append(.move(role, to: target))
            }
        }
        return actions
    }

    /// Capture runs and playback is ready or has failed (a missing speaker must not keep the
    /// microphone from working), so `play` works from the moment the daemon hears of it.
    private func streamsReadyIfReady() -> [Action] {
        guard !isConnected, capture.stream == .ready, playback.stream != .opening else { return [] }
        return [.streamsReady]
    }

    /// Records the device a stream is on and tells the daemon when it changed.
    private mutating func deviceInUse(_ role: PulseStreamRole, _ name: String?) -> [Action] {
        guard let name, name != route(role).current else { return [] }
        update(role) { $0.current = name }
        return statusUpdate(echoCancellation: echoCanceller.status) + (isConnected ? [.reportDeviceChanged(role, name)] : [])
    }

    private func statusUpdate(echoCancellation: PulseEchoCancellation?) -> [Action] {
        guard isConnected else { return [] }
        return [.updateStatus(source: capture.current, sink: playback.current, echoCancellation: echoCancellation)]
    }

    /// Loads or moves the canceller onto the devices the routes want, once the server is known.
    private mutating func reconcileEchoCanceller() -> [Action] {
        guard let defaults else { return [] }
        let wanted = plainTarget(.capture).flatMap { source in
            plainTarget(.playback).map { PulseEchoCanceller.Masters(source: source, sink: $0) }
        }
        return absorb(echoCanceller.reconcile(wanted: wanted, defaults: defaults))
    }

    /// The canceller's actions, with its settling turned into the streams' status and placement.
    private mutating func absorb(_ actions: [PulseEchoCancellerMachine.Action]) -> [Action] {
        var absorbed: [Action] = []
        for action in actions {
            switch action {
            case .updateStatus(let status): absorbed += statusUpdate(echoCancellation: status)
            case .placeStreams: absorbed += placeStreams(force: true)
            default: absorbed.append(.echoCanceller(action))
            }
        }
        return absorbed
    }
}
