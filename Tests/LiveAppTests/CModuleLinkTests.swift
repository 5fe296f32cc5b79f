import CFFTW
import CPNG
import CPulse
import CSDL2
import CSndfile
import ImGuiShim
import Testing

/// Each C library module links and answers a trivial call.
@Suite(.serialized) struct CModuleLinkTests {
    @Test func pulseAudioLinks() {
        let v = String(cString: pa_get_library_version())
        #expect(v.first?.isNumber == true, "libpulse version '\(v)'")
    }

    @Test func fftwLinksAndTransforms() throws {
        let n: Int32 = 8
        let input = try #require(fftwf_alloc_real(Int(n)))
        let output = try #require(fftwf_alloc_complex(Int(n / 2 + 1)))
        defer { fftwf_free(input); fftwf_free(output) }
        for i in 0..<Int(n) { input[i] = 1 }
        let plan = try #require(fftwf_plan_dft_r2c_1d(n, input, output, cfftw_estimate()))
        fftwf_execute(plan)
        fftwf_destroy_plan(plan)
        #expect(output[0].0 == 8)  // DC bin = sum of the input
        #expect(abs(output[1].0) < 1e-6)
    }

    @Test func sdlLinks() {
        var v = SDL_version()
        SDL_GetVersion(&v)
        #expect(v.major == 2)
    }

    @Test func sndfileLinks() {
        let v = String(cString: sf_version_string())
        #expect(v.hasPrefix("libsndfile"))
    }

    @Test func pngLinks() {
        #expect(png_access_version_number() >= 10600)
    }

    @Test func imguiLinks() {
        #expect(String(cString: imguishim_version()).hasPrefix("1."))
    }
}
