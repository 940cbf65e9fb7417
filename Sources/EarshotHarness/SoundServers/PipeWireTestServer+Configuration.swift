/// The configuration files of a private PipeWire: only what runs the graph, links streams and
/// serves the PulseAudio protocol on a socket in the directory. No device monitors (ALSA,
/// Bluetooth, V4L2, libcamera: no real devices, even on a desktop), no portal, no real-time
/// scheduling (as the test PulseAudio runs with --realtime=no), no network.
extension PipeWireTestServer {
    /// The private session bus: pipewire-pulse claims `org.pulseaudio.Server` on it, as on a
    /// desktop, without touching the bus of the person running the tests.
    static func busConfiguration(socket: String) -> String {
        """
        <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
        <busconfig>
          <type>session</type>
          <listen>unix:path=\(socket)</listen>
          <auth>EXTERNAL</auth>
          <policy context="default">
            <allow send_destination="*" eavesdrop="true"/>
            <allow eavesdrop="true"/>
            <allow own="*"/>
          </policy>
        </busconfig>

        """
    }

    /// The graph runs at 16 kHz, the rate of the devices and of the daemon's streams, so samples
    /// pass bit-exact (as through the test PulseAudio) rather than resampled twice.
    static let pipewireConfiguration = """
        context.properties = {
            core.daemon = true
            core.name = pipewire-0
            default.clock.rate = 16000
            default.clock.allowed-rates = [ 16000 ]
            default.clock.quantum = 256
            default.clock.min-quantum = 16
            default.clock.max-quantum = 2048
            link.max-buffers = 16
            mem.warn-mlock = false
        }
        context.spa-libs = {
            audio.convert.* = audioconvert/libspa-audioconvert
            support.*       = support/libspa-support
        }
        context.modules = [
            { name = libpipewire-module-rt args = { nice.level = -11 rt.prio = 88 } flags = [ ifexists nofail ] }
            { name = libpipewire-module-protocol-native }
            { name = libpipewire-module-metadata }
            { name = libpipewire-module-spa-device-factory }
            { name = libpipewire-module-spa-node-factory }
            { name = libpipewire-module-client-node }
            { name = libpipewire-module-client-device }
            { name = libpipewire-module-access }
            { name = libpipewire-module-adapter }
            { name = libpipewire-module-link-factory }
            { name = libpipewire-module-session-manager }
        ]
        context.objects = [
            { factory = spa-node-factory
              args = { factory.name = support.node.driver node.name = Dummy-Driver node.group = pipewire.dummy
                       priority.driver = 20000 } }
            { factory = spa-node-factory
              args = { factory.name = support.node.driver node.name = Freewheel-Driver node.group = pipewire.freewheel
                       priority.driver = 19000 node.freewheel = true } }
        ]

        """

    /// WirePlumber's own modules, its main and policy scripts, not its Bluetooth ones.
    static let wireplumberConfiguration = """
        context.properties = {
            log.level = 2
            wireplumber.script-engine = lua-scripting
        }
        context.spa-libs = {
            audio.convert.* = audioconvert/libspa-audioconvert
            support.*       = support/libspa-support
        }
        context.modules = [
            { name = libpipewire-module-protocol-native }
            { name = libpipewire-module-client-node }
            { name = libpipewire-module-client-device }
            { name = libpipewire-module-adapter }
            { name = libpipewire-module-metadata }
            { name = libpipewire-module-session-manager }
        ]
        wireplumber.components = [
            { name = libwireplumber-module-lua-scripting, type = module }
            { name = main.lua, type = config/lua }
            { name = policy.lua, type = config/lua }
        ]

        """

    /// Replaces WirePlumber's `main.lua.d/90-enable-all.lua` (a file of the same name in
    /// `$XDG_CONFIG_HOME/wireplumber` wins): everything it enables but the device monitors.
    static let wireplumberMainScript = """
        load_module("metadata")
        default_access.enable()
        device_defaults.enable()
        stream_defaults.enable()
        load_script("intended-roles.lua")
        load_script("suspend-node.lua")

        """

    /// pipewire-pulse loads the devices itself each time it starts, as PulseAudio's default.pa
    /// does; its `pulse.cmd` knows only load-module, so the defaults are set with pactl.
    static func pulseConfiguration(socket: String) -> String {
        """
        context.properties = { }
        context.spa-libs = {
            audio.convert.* = audioconvert/libspa-audioconvert
            support.*       = support/libspa-support
        }
        context.modules = [
            { name = libpipewire-module-rt args = { nice.level = -11 rt.prio = 88 } flags = [ ifexists nofail ] }
            { name = libpipewire-module-protocol-native }
            { name = libpipewire-module-client-node }
            { name = libpipewire-module-adapter }
            { name = libpipewire-module-metadata }
            { name = libpipewire-module-protocol-pulse }
        ]
        pulse.properties = {
            server.address = [ "unix:\(socket)" ]
        }
        pulse.cmd = [
            { cmd = "load-module" args = "module-null-sink sink_name=speaker rate=16000 channels=1 norewinds=1" }
            { cmd = "load-module" args = "module-null-sink sink_name=micfeed rate=16000 channels=1 norewinds=1" }
            { cmd = "load-module" args = "module-remap-source source_name=mic master=micfeed.monitor channels=1" }
        ]

        """
    }
}
