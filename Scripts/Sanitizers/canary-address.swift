// A heap overflow the address sanitizer must report: `make sanitize` runs this first, so a build
// or an option that silenced the sanitizer fails the run instead of passing it.
let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: 8)
buffer.initialize(repeating: 0, count: 8)
let index = Int(CommandLine.arguments.count) + 7
print(buffer[index])
buffer.deallocate()
