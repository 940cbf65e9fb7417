/// The `struct ucred` that `getsockopt(SO_PEERCRED)` fills in. Glibc's module does not export
/// `ucred` to Swift (it sits behind `_GNU_SOURCE`), so this mirrors its layout: three 32-bit
/// fields in this order.
struct PeerCredentials: Sendable {
    var pid: Int32 = 0
    var uid: UInt32 = 0
    var gid: UInt32 = 0
}
