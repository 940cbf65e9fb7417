// The tests run the same private sound servers, peers and child processes as the benchmarks:
// every test that imports the support sees them.
@_exported public import EarshotHarness
