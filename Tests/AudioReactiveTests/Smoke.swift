import Testing
@testable import AudioReactive
