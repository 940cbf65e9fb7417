extension PulseTestServer {
    /// `norewinds=1` matters: without it the monitors lose their first 10 ms, drop leading silence
    /// and lag by about a second.
    static func configuration(socket: String) -> String {
        """
        load-module module-native-protocol-unix auth-anonymous=1 socket=\(socket)
        load-module module-null-sink sink_name=speaker rate=16000 channels=1 norewinds=1
        load-module module-null-sink sink_name=micfeed rate=16000 channels=1 norewinds=1
        load-module module-remap-source source_name=mic master=micfeed.monitor
        set-default-sink speaker
        set-default-source mic

        """
    }
}
