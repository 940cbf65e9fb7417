extension WatchModel {
    /// One level reading for the voice blob (a `level` event).
    public struct Meter: Sendable, Equatable {
        /// Perceived loudness, 0…1.
        public var level: Double
        public var rmsDBFS: Double?
        /// Below 300 Hz, 300 Hz–1 kHz, 1–3 kHz, above 3 kHz; each 0…1.
        public var bands: [Double]

        public init(level: Double, rmsDBFS: Double? = nil, bands: [Double] = []) {
            self.level = level
            self.rmsDBFS = rmsDBFS
            self.bands = bands
        }
    }

    /// The person's latest utterance, in audio time (`speech` events).
    public struct Utterance: Sendable, Equatable {
        public var turn: Int
        /// The onset; `nil` if it began before the watch did.
        public var start: Double?
        /// The end of its last speech frame; `nil` while the person is still speaking.
        public var end: Double?

        public init(turn: Int, start: Double?, end: Double? = nil) {
            self.turn = turn
            self.start = start
            self.end = end
        }

        public var duration: Double? {
            guard let start, let end else { return nil }
            return end - start
        }
    }

    /// An error the daemon reported (an `error` event, or one of `status`'s last errors).
    public struct ErrorNote: Sendable, Equatable {
        public var code: String
        public var message: String
        /// Unix seconds, when known.
        public var wall: Double?

        public init(code: String, message: String, wall: Double? = nil) {
            self.code = code
            self.message = message
            self.wall = wall
        }
    }

    /// The sound server and the devices in use.
    public struct AudioRoute: Sendable, Equatable {
        public var connected: Bool?
        public var server: String?
        public var source: String?
        public var sink: String?

        public init(connected: Bool? = nil, server: String? = nil, source: String? = nil, sink: String? = nil) {
            self.connected = connected
            self.server = server
            self.source = source
            self.sink = sink
        }
    }
}
