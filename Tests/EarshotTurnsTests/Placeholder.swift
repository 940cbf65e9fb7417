import Testing
@testable import EarshotTurns
