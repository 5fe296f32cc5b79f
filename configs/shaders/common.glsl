// Shared by every compute shader of the GPU backend (included before each
// file's own source; the engine adds `#version 430` and the work-group size).
// Arithmetic that the CPU reference does in a fixed order is marked
// `precise`, so the compiler neither fuses nor reorders it.

// Field size and species planes: plane c of a W×H field starts at c·W·H.
uniform ivec2 uField;

// The "lowbias32" finaliser of the CPU engine's counter hash.
uint mixHash(uint x) {
    uint h = x;
    h ^= h >> 16; h *= 0x7FEB352Du;
    h ^= h >> 15; h *= 0x846CA68Bu;
    h ^= h >> 16;
    return h;
}

// The filmic tone curve (display gamma built in), as the CPU renderer.
vec3 filmic(vec3 x0) {
    precise vec3 x = max(x0 - 0.004, vec3(0.0));
    precise vec3 n = x * (6.2 * x + 0.5);
    precise vec3 d = x * (6.2 * x + 1.7) + 0.06;
    return n / d;
}

float filmic1(float x0) {
    precise float x = max(x0 - 0.004, 0.0);
    precise float n = x * (6.2 * x + 0.5);
    precise float d = x * (6.2 * x + 1.7) + 0.06;
    return n / d;
}
