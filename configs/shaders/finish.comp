// The finishing pass: add the bloom (level 0 upsampled ×4), vignette,
// saturation, contrast, pack RGBA8 and apply the output brightness as the
// CPU does on bytes. Writes the frame texture (viewed as r32ui), row 0 at the top.
layout(rgba32f, binding = 0) readonly uniform image2D uHistory;
layout(rgba32f, binding = 1) readonly uniform image2D uBloom;
layout(r32ui, binding = 2) writeonly uniform uimage2D uFrame;
uniform ivec2 uOut;
uniform ivec2 uBloomSize;
uniform float uBloomK;      // 0 = off
uniform float uVignetteK;   // 0 = off
uniform float uVignetteStart;
uniform float uSaturation, uContrast;
uniform uint uAlpha;        // brightness × 256; 256 = untouched
const vec3 luma = vec3(0.2126, 0.7152, 0.0722);

vec3 bloomRow(int x, int row) {
    int i = x >> 2, ph = x & 3;
    int bw = uBloomSize.x;
    vec3 left = imageLoad(uBloom, ivec2(max(i - 1, 0), row)).rgb;
    vec3 mid = imageLoad(uBloom, ivec2(i, row)).rgb;
    vec3 right = imageLoad(uBloom, ivec2(min(i + 1, bw - 1), row)).rgb;
    precise vec3 v;
    if (ph == 0) v = left * 0.375 + mid * 0.625;
    else if (ph == 1) v = left * 0.125 + mid * 0.875;
    else if (ph == 2) v = mid * 0.875 + right * 0.125;
    else v = mid * 0.625 + right * 0.375;
    return v;
}

uint toByte(float v) {
    precise float s = clamp(v, 0.0, 1.0) * 255.0;
    return uint(roundEven(s));
}

void main() {
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    if (p.x >= uOut.x || p.y >= uOut.y) return;
    precise vec3 c = imageLoad(uHistory, p).rgb;
    if (uBloomK > 0.0) {
        int j = p.y >> 2, ph = p.y & 3;
        int ra = ph < 2 ? j - 1 : j, rb = ph < 2 ? j : j + 1;
        float wb = ph == 0 ? 0.625 : (ph == 1 ? 0.875 : (ph == 2 ? 0.125 : 0.375));
        ra = clamp(ra, 0, uBloomSize.y - 1); rb = clamp(rb, 0, uBloomSize.y - 1);
        float wbv = wb * uBloomK, wav = (1.0 - wb) * uBloomK;
        c += bloomRow(p.x, ra) * wav + bloomRow(p.x, rb) * wbv;
    }
    if (uVignetteK > 0.0) {
        float u = (float(p.x) + 0.5 - float(uOut.x) / 2.0) / (float(uOut.x) / 2.0);
        float v = (float(p.y) + 0.5 - float(uOut.y) / 2.0) / (float(uOut.y) / 2.0);
        precise float t = clamp(((u * u / 2.0 + v * v / 2.0) - uVignetteStart) * (1.0 / (1.0 - uVignetteStart)), 0.0, 1.0);
        precise float f = 1.0 - uVignetteK * (t * t * (3.0 - t - t));
        c *= f;
    }
    if (uSaturation != 1.0) {
        precise float l = luma.r * c.r + luma.g * c.g + luma.b * c.b;
        c = l + (c - l) * uSaturation;
    }
    if (uContrast != 1.0) c = 0.5 + (c - 0.5) * uContrast;
    uvec3 b = uvec3(toByte(c.r), toByte(c.g), toByte(c.b));
    if (uAlpha < 256u) b = (b * uAlpha + 128u) >> 8;
    imageStore(uFrame, p, uvec4(b.r | (b.g << 8) | (b.b << 16) | 0xFF000000u));
}
