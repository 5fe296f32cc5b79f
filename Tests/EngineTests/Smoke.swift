import Testing
@testable import Engine
@Test func engineVersion() { #expect(!Engine.engineVersion.isEmpty) }
