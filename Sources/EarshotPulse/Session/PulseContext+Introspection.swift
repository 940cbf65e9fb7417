import CPulse

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

extension PulseDevice {
    init(_ info: pa_source_info) {
        self.init(
            name: info.name.map { String(cString: $0) } ?? "",
            description: info.description.map { String(cString: $0) } ?? "",
            isMonitor: info.monitor_of_sink != UInt32.max  // PA_INVALID_INDEX, a cast macro Swift does not import
        )
    }

    init(_ info: pa_sink_info) {
        self.init(
            name: info.name.map { String(cString: $0) } ?? "",
            description: info.description.map { String(cString: $0) } ?? ""
        )
    }
}
