// Merge the deposit counts into the trails (min(count, 255) × deposit), blur
// (3×3 sum, wrapping, horizontal sums first as the CPU does), decay, fade and
// cap; write the new trails and the sensing planes F_s = Σ_c M[s,c]·T_c.
// One invocation per pixel; the counts are cleared before the next agent pass.
layout(std430, binding = 0) readonly buffer Src { float src[]; };    // 3 planes
layout(std430, binding = 1) writeonly buffer Dst { float dst[]; };   // 3 planes
layout(std430, binding = 2) readonly buffer Counts { uint counts[]; };
layout(r16f, binding = 0) writeonly uniform image2DArray uSenseOut;
uniform vec3 uDeposit;
uniform float uScale;     // decay (× ⅑ when blurring)
uniform float uFade;
uniform float uCap;
uniform bool uBlur;
uniform float uM[9];      // interaction matrix, row-major M[s][c]

float merged(int c, int x, int y) {
    int i = c * uField.x * uField.y + y * uField.x + x;
    precise float m = src[i] + float(min(counts[i], 255u)) * uDeposit[c];
    return m;
}

float rowSum(int c, int x, int y) {
    int xl = x == 0 ? uField.x - 1 : x - 1, xr = x == uField.x - 1 ? 0 : x + 1;
    precise float h = (merged(c, xl, y) + merged(c, x, y)) + merged(c, xr, y);
    return h;
}

void main() {
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    if (p.x >= uField.x || p.y >= uField.y) return;
    int yu = p.y == 0 ? uField.y - 1 : p.y - 1, yd = p.y == uField.y - 1 ? 0 : p.y + 1;
    float t[3];
    for (int c = 0; c < 3; c++) {
        precise float v;
        if (uBlur) {
            v = (rowSum(c, p.x, yu) + rowSum(c, p.x, p.y)) + rowSum(c, p.x, yd);
        } else {
            v = merged(c, p.x, p.y);
        }
        precise float w = v * uScale - uFade;
        t[c] = min(max(w, 0.0), uCap);
        dst[c * uField.x * uField.y + p.y * uField.x + p.x] = t[c];
    }
    for (int s = 0; s < 3; s++) {
        precise float f = (uM[s * 3] * t[0] + uM[s * 3 + 1] * t[1]) + uM[s * 3 + 2] * t[2];
        imageStore(uSenseOut, ivec3(p, s), vec4(f));
    }
}
