import Testing
@testable import Engine
@Test func engineRegistryLoads() { #expect(!ParamRegistry.scalars.isEmpty) }
