import Testing
@testable import EarshotPipeline
