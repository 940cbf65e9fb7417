import Testing
@testable import EarshotDetection
