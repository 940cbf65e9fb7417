import CPulse

/// Owner of a `pa_context`: one connection to a sound server.
///
/// Used only on the mainloop thread or with the mainloop lock held. `close()` clears the
/// callbacks, disconnects and drops the reference, once.
final class PulseContext {
    private(set) var pointer: OpaquePointer?

    init(mainloop: PulseMainloop, applicationName: String) throws(PulseError) {
        guard let pointer = pa_context_new(mainloop.api, applicationName) else {
            throw PulseError(.internalError, while: "create a PulseAudio context")
        }
        self.pointer = pointer
    }

    deinit { close() }

    /// Starts connecting to `server` (nil: libpulse's default, including `PULSE_SERVER`).
    /// Progress arrives through the state callback.
    func connect(server: String?, stateCallback: pa_context_notify_cb_t, userdata: UnsafeMutableRawPointer) throws(PulseError) {
        guard let pointer else { throw PulseError(.badState, while: "connect a closed context") }
        pa_context_set_state_callback(pointer, stateCallback, userdata)
        // libpulse may fail the context inside pa_context_connect, and the state callback may
        // close this wrapper then: keep the context alive to read its error.
        pa_context_ref(pointer)
        defer { pa_context_unref(pointer) }
        if pa_context_connect(pointer, server, PA_CONTEXT_NOAUTOSPAWN, nil) < 0 {
            throw PulseError(lastErrorOf: pointer, while: "connect to the sound server")
        }
    }

    var state: pa_context_state_t {
        pointer.map { pa_context_get_state($0) } ?? PA_CONTEXT_TERMINATED
    }

    var isReady: Bool { state == PA_CONTEXT_READY }

    /// The address of the server connected to, e.g. "unix:/run/user/1000/pulse/native".
    var serverAddress: String? {
        pointer.flatMap { pa_context_get_server($0) }.map { String(cString: $0) }
    }

    func lastError(while operation: String) -> PulseError {
        guard let pointer else { return PulseError(.badState, while: operation) }
        return PulseError(lastErrorOf: pointer, while: operation)
    }

    /// Asks for server, source, sink and module events through `callback`.
    func subscribe(callback: pa_context_subscribe_cb_t, userdata: UnsafeMutableRawPointer) {
        guard let pointer else { return }
        pa_context_set_subscribe_callback(pointer, callback, userdata)
        let mask = PA_SUBSCRIPTION_MASK_SERVER.rawValue | PA_SUBSCRIPTION_MASK_SOURCE.rawValue
            | PA_SUBSCRIPTION_MASK_SINK.rawValue | PA_SUBSCRIPTION_MASK_MODULE.rawValue
        PulseOperation.release(pa_context_subscribe(pointer, pa_subscription_mask_t(rawValue: mask), nil, nil))
    }

    func close() {
        guard let pointer else { return }
        self.pointer = nil
        pa_context_set_state_callback(pointer, nil, nil)
        pa_context_set_subscribe_callback(pointer, nil, nil)
        pa_context_disconnect(pointer)
        pa_context_unref(pointer)
    }
}

// Queries and commands on the server's devices and streams. Each copies what libpulse hands its
// callback before returning (libpulse frees it afterwards) and finishes its query exactly once.
extension PulseContext {
    func requestServerInfo(_ query: PulseQuery<PulseServerInfo?>) {
        query.start(on: self) { context, userdata in
            pa_context_get_server_info(context, { context, info, userdata in
                guard let query = PulseQuery<PulseServerInfo?>.from(userdata) else { return }
                guard let info else { return query.fail(on: context) }
                query.value = PulseServerInfo(info.pointee)
                query.succeed()
            }, userdata)
        }
    }

    func requestSources(_ query: PulseQuery<[PulseDevice]>) {
        query.start(on: self) { context, userdata in
            pa_context_get_source_info_list(context, { context, info, endOfList, userdata in
                guard let query = PulseQuery<[PulseDevice]>.from(userdata) else { return }
                if endOfList < 0 { return query.fail(on: context) }
                if endOfList > 0 { return query.succeed() }
                if let info { query.value.append(PulseDevice(info.pointee)) }
            }, userdata)
        }
    }

    func requestSinks(_ query: PulseQuery<[PulseDevice]>) {
        query.start(on: self) { context, userdata in
            pa_context_get_sink_info_list(context, { context, info, endOfList, userdata in
                guard let query = PulseQuery<[PulseDevice]>.from(userdata) else { return }
                if endOfList < 0 { return query.fail(on: context) }
                if endOfList > 0 { return query.succeed() }
                if let info { query.value.append(PulseDevice(info.pointee)) }
            }, userdata)
        }
    }

    /// Finds one source by name; a missing one fails with `.noEntity`.
    func requestSource(named name: String, _ query: PulseQuery<PulseDevice?>) {
        query.start(on: self) { context, userdata in
            pa_context_get_source_info_by_name(context, name, { context, info, endOfList, userdata in
                guard let query = PulseQuery<PulseDevice?>.from(userdata) else { return }
                if endOfList < 0 { return query.fail(on: context) }
                if let info { query.value = PulseDevice(info.pointee) }
                if endOfList > 0 { query.value == nil ? query.fail(PulseError(.noEntity, while: query.operation)) : query.succeed() }
            }, userdata)
        }
    }

    /// Finds one sink by name; a missing one fails with `.noEntity`.
    func requestSink(named name: String, _ query: PulseQuery<PulseDevice?>) {
        query.start(on: self) { context, userdata in
            pa_context_get_sink_info_by_name(context, name, { context, info, endOfList, userdata in
                guard let query = PulseQuery<PulseDevice?>.from(userdata) else { return }
                if endOfList < 0 { return query.fail(on: context) }
                if let info { query.value = PulseDevice(info.pointee) }
                if endOfList > 0 { query.value == nil ? query.fail(PulseError(.noEntity, while: query.operation)) : query.succeed() }
            }, userdata)
        }
    }

    /// Finds one source by its server-side index; a missing one fails with `.noEntity`.
    func requestSource(at index: UInt32, _ query: PulseQuery<PulseDevice?>) {
        query.start(on: self) { context, userdata in
            pa_context_get_source_info_by_index(context, index, { context, info, endOfList, userdata in
                guard let query = PulseQuery<PulseDevice?>.from(userdata) else { return }
                if endOfList < 0 { return query.fail(on: context) }
                if let info { query.value = PulseDevice(info.pointee) }
                if endOfList > 0 { query.value == nil ? query.fail(PulseError(.noEntity, while: query.operation)) : query.succeed() }
            }, userdata)
        }
    }

    /// Finds one sink by its server-side index; a missing one fails with `.noEntity`.
    func requestSink(at index: UInt32, _ query: PulseQuery<PulseDevice?>) {
        query.start(on: self) { context, userdata in
            pa_context_get_sink_info_by_index(context, index, { context, info, endOfList, userdata in
                guard let query = PulseQuery<PulseDevice?>.from(userdata) else { return }
                if endOfList < 0 { return query.fail(on: context) }
                if let info { query.value = PulseDevice(info.pointee) }
                if endOfList > 0 { query.value == nil ? query.fail(PulseError(.noEntity, while: query.operation)) : query.succeed() }
            }, userdata)
        }
    }

    /// Moves a record stream (by its server-side index) to the source `name`.
    func moveSourceOutput(_ index: UInt32, to name: String, _ query: PulseQuery<Void>) {
        query.start(on: self) { context, userdata in
            pa_context_move_source_output_by_name(context, index, name, PulseContext.successCallback, userdata)
        }
    }

    /// Moves a playback stream (by its server-side index) to the sink `name`.
    func moveSinkInput(_ index: UInt32, to name: String, _ query: PulseQuery<Void>) {
        query.start(on: self) { context, userdata in
            pa_context_move_sink_input_by_name(context, index, name, PulseContext.successCallback, userdata)
        }
    }

    /// Finishes a `PulseQuery<Void>` with libpulse's verdict.
    static var successCallback: pa_context_success_cb_t {
        { context, success, userdata in
            guard let query = PulseQuery<Void>.from(userdata) else { return }
            success != 0 ? query.succeed() : query.fail(on: context)
        }
    }
}

// Server modules and stream volume: loading and unloading the echo canceller, ducking playback.
extension PulseContext {
    /// Loads module `name` with `arguments`; answers with its index. The server tells clients
    /// only "Module initialization failed" (`.moduleInitFailed`); its log says why.
    func loadModule(_ name: String, arguments: String, _ query: PulseQuery<UInt32?>) {
        query.start(on: self) { context, userdata in
            pa_context_load_module(context, name, arguments, { context, index, userdata in
                guard let query = PulseQuery<UInt32?>.from(userdata) else { return }
                guard index != UInt32.max else { return query.fail(on: context) }  // PA_INVALID_INDEX
                query.value = index
                query.succeed()
            }, userdata)
        }
    }

    func unloadModule(_ index: UInt32, _ query: PulseQuery<Void>) {
        query.start(on: self) { context, userdata in
            pa_context_unload_module(context, index, PulseContext.successCallback, userdata)
        }
    }

    func requestModules(_ query: PulseQuery<[PulseModule]>) {
        query.start(on: self) { context, userdata in
            pa_context_get_module_info_list(context, { context, info, endOfList, userdata in
                guard let query = PulseQuery<[PulseModule]>.from(userdata) else { return }
                if endOfList < 0 { return query.fail(on: context) }
                if endOfList > 0 { return query.succeed() }
                if let info { query.value.append(PulseModule(info.pointee)) }
            }, userdata)
        }
    }

    /// Sets a playback stream's own volume (by its server-side index) on all its `channels`.
    func setSinkInputVolume(_ index: UInt32, _ volume: pa_volume_t, channels: UInt8, _ query: PulseQuery<Void>) {
        var levels = pa_cvolume()
        pa_cvolume_set(&levels, UInt32(channels), volume)
        query.start(on: self) { context, userdata in
            pa_context_set_sink_input_volume(context, index, &levels, PulseContext.successCallback, userdata)
        }
    }
}

/// What `pa_context_get_server_info` says, copied out of libpulse's memory.
struct PulseServerInfo: Sendable, Hashable {
    var serverName: String
    var serverVersion: String
    var defaultSource: String?
    var defaultSink: String?

    /// The name and version in one: PipeWire's name already says which version it is, and its
    /// version field is the PulseAudio protocol level it imitates.
    var displayName: String {
        serverName.contains("(") ? serverName : "\(serverName) \(serverVersion)"
    }

    init(_ info: pa_server_info) {
        serverName = info.server_name.map { String(cString: $0) } ?? ""
        serverVersion = info.server_version.map { String(cString: $0) } ?? ""
        defaultSource = info.default_source_name.map { String(cString: $0) }
        defaultSink = info.default_sink_name.map { String(cString: $0) }
    }
}

/// A module loaded on the sound server, as `pactl list modules` shows it.
struct PulseModule: Sendable, Hashable {
    var index: UInt32
    var name: String
    var argument: String
}

extension PulseModule {
    init(_ info: pa_module_info) {
        self.init(
            index: info.index,
            name: info.name.map { String(cString: $0) } ?? "",
            argument: info.argument.map { String(cString: $0) } ?? ""
        )
    }
}
