import CPulse

extension PulseMainloop {
    /// The `pa_mainloop_api` table: libpulse's calls, each on the loop thread or with the lock
    /// held, turned into the loop's event sources.
    static func makeTable() -> pa_mainloop_api {
        pa_mainloop_api(
            userdata: nil,
            io_new: { api, descriptor, events, callback, userdata in
                PulseMainloop.from(api).addIOEvent(descriptor: descriptor, events: events, callback: callback!, userdata: userdata).pointer
            },
            io_enable: { pointer, events in
                let event = PulseMainloopIOEvent.from(pointer)
                guard event.events != events else { return }
                event.events = events
                event.loop.watch(event)
            },
            io_free: { pointer in
                let event = PulseMainloopIOEvent.from(pointer)
                event.dead = true
                event.loop.eventFreed(watchingADescriptor: true)
            },
            io_set_destroy: { pointer, callback in PulseMainloopIOEvent.from(pointer).destroyCallback = callback },
            time_new: { api, time, callback, userdata in
                let loop = PulseMainloop.from(api)
                let event = PulseMainloopTimeEvent(loop: loop, callback: callback!, userdata: userdata)
                event.set(time)
                loop.add(event)
                return event.pointer
            },
            time_restart: { pointer, time in
                let event = PulseMainloopTimeEvent.from(pointer)
                event.set(time)
                event.loop.sourcesChanged()
            },
            time_free: { pointer in
                let event = PulseMainloopTimeEvent.from(pointer)
                event.dead = true
                event.armed = false
                event.loop.eventFreed(watchingADescriptor: false)
            },
            time_set_destroy: { pointer, callback in PulseMainloopTimeEvent.from(pointer).destroyCallback = callback },
            defer_new: { api, callback, userdata in
                let loop = PulseMainloop.from(api)
                let event = PulseMainloopDeferEvent(loop: loop, callback: callback!, userdata: userdata)
                loop.enabledDeferEvents += 1
                loop.add(event)
                return event.pointer
            },
            defer_enable: { pointer, enable in
                let event = PulseMainloopDeferEvent.from(pointer)
                let enabled = enable != 0
                guard enabled != event.enabled else { return }
                event.enabled = enabled
                event.loop.enabledDeferEvents += enabled ? 1 : -1
                if enabled { event.loop.sourcesChanged() }
            },
            defer_free: { pointer in
                let event = PulseMainloopDeferEvent.from(pointer)
                event.dead = true
                if event.enabled {
                    event.enabled = false
                    event.loop.enabledDeferEvents -= 1
                }
                event.loop.eventFreed(watchingADescriptor: false)
            },
            defer_set_destroy: { pointer, callback in PulseMainloopDeferEvent.from(pointer).destroyCallback = callback },
            quit: { api, _ in PulseMainloop.from(api).quit() }
        )
    }
}
