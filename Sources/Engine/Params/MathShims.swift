#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// libm entry points under names that do not clash with SIMD or Float overloads.
@inline(__always) func Foundation_log(_ x: Double) -> Double { log(x) }
@inline(__always) func Foundation_exp(_ x: Double) -> Double { exp(x) }
@inline(__always) func Foundation_pow(_ x: Double, _ y: Double) -> Double { pow(x, y) }
@inline(__always) func Foundation_sin(_ x: Double) -> Double { sin(x) }
@inline(__always) func Foundation_cos(_ x: Double) -> Double { cos(x) }
