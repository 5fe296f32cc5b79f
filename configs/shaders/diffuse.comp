// Merge the deposit counts into the trails (min(count, 255) × deposit), blur
// (3×3 sum, wrapping, horizontal sums first as the CPU does), decay, fade and
// cap; write the new trails and the sensing planes F_s = Σ_c M[s,c]·T_c.
// One invocation per pixel; a work group merges its 18×18 neighbourhood
// once into shared memory (not nine times per pixel). The counts are
// cleared before the next agent pass.
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
const int kSide = int(gl_WorkGroupSize.x) + 2;
shared float sMerged[3][kSide][kSide];

void main() {
    ivec2 origin = ivec2(gl_WorkGroupID.xy * gl_WorkGroupSize.xy) - 1;
    int plane = uField.x * uField.y;
    for (int k = int(gl_LocalInvocationIndex); k < kSide * kSide; k += int(gl_WorkGroupSize.x * gl_WorkGroupSize.y)) {
        int lx = k % kSide, ly = k / kSide;
        int x = (origin.x + lx + uField.x) % uField.x, y = (origin.y + ly + uField.y) % uField.y;
        int i = y * uField.x + x;
        for (int c = 0; c < 3; c++) {
            precise float m = src[c * plane + i] + float(min(counts[c * plane + i], 255u)) * uDeposit[c];
            sMerged[c][ly][lx] = m;
        }
    }
    barrier();
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    if (p.x >= uField.x || p.y >= uField.y) return;
    ivec2 l = ivec2(gl_LocalInvocationID.xy) + 1;
    float t[3];
    for (int c = 0; c < 3; c++) {
        precise float v;
        if (uBlur) {
            precise float hu = (sMerged[c][l.y - 1][l.x - 1] + sMerged[c][l.y - 1][l.x]) + sMerged[c][l.y - 1][l.x + 1];
            precise float hm = (sMerged[c][l.y][l.x - 1] + sMerged[c][l.y][l.x]) + sMerged[c][l.y][l.x + 1];
            precise float hd = (sMerged[c][l.y + 1][l.x - 1] + sMerged[c][l.y + 1][l.x]) + sMerged[c][l.y + 1][l.x + 1];
            v = (hu + hm) + hd;
        } else {
            v = sMerged[c][l.y][l.x];
        }
        precise float w = v * uScale - uFade;
        t[c] = min(max(w, 0.0), uCap);
        dst[c * plane + p.y * uField.x + p.x] = t[c];
    }
    for (int s = 0; s < 3; s++) {
        precise float f = (uM[s * 3] * t[0] + uM[s * 3 + 1] * t[1]) + uM[s * 3 + 2] * t[2];
        imageStore(uSenseOut, ivec3(p, s), vec4(f));
    }
}
