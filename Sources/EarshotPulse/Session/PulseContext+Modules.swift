import CPulse

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

extension PulseModule {
    init(_ info: pa_module_info) {
        self.init(
            index: info.index,
            name: info.name.map { String(cString: $0) } ?? "",
            argument: info.argument.map { String(cString: $0) } ?? ""
        )
    }
}
