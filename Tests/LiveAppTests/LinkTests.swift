import Testing
@testable import LiveApp
import ImGuiShim

@Suite struct LinkTests {
    @Test func imguiLinks() {
        #expect(String(cString: imguishim_version()).hasPrefix("1."))
    }
}
