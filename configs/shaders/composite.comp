// The composite pass, per output pixel: sample the field (same size, cover
// resampling, or the kaleidoscope), add head glow, colour the species by the
// blend mode, tone map, mix in the previous frame (feedback) and store the
// result as the new history (display values, before bloom and grading).
layout(std430, binding = 0) readonly buffer Trails { float trails[]; };
layout(std430, binding = 2) readonly buffer Counts { uint counts[]; };   // last step's deposits = heads
layout(rgba32f, binding = 0) uniform image2D uHistory;
uniform ivec2 uOut;
uniform int uMode;          // 0 same size, 1 resample, 2 kaleidoscope
uniform float uScale;       // field pixels per output pixel (cover)
uniform int uAxes;
uniform float uTrailGain, uGlowGain;
uniform bool uAdditive;
uniform vec3 uBackground;
uniform vec3 uColor[3];     // additive: linear colour; paint: 1 − display colour
uniform float uFeedback;    // 0 = off

vec3 fieldAt(int i) {
    int n = uField.x * uField.y;
    vec3 t = vec3(trails[i], trails[n + i], trails[2 * n + i]);
    precise vec3 e = uTrailGain * t;
    if (uGlowGain > 0.0) {
        vec3 g = vec3(float(min(counts[i], 255u)), float(min(counts[n + i], 255u)), float(min(counts[2 * n + i], 255u)));
        precise vec3 eg = e + uGlowGain * g;
        return eg;
    }
    return e;
}

// Triangle-filter taps along one axis, as the CPU's AxisTaps.
void taps(int i, int outCount, int fieldCount, out int first, out int count, out float f, out float radius) {
    radius = max(1.0, uScale);
    count = int(ceil(2.0 * radius)) + 1;
    f = float(fieldCount) / 2.0 + (float(i) + 0.5 - float(outCount) / 2.0) * uScale - 0.5;
    first = int(ceil(f - radius));
}

vec3 resampled(ivec2 p) {
    int fx0, nx, fy0, ny; float fx, fy, rx, ry;
    taps(p.x, uOut.x, uField.x, fx0, nx, fx, rx);
    taps(p.y, uOut.y, uField.y, fy0, ny, fy, ry);
    float sx = 0.0, sy = 0.0;
    for (int k = 0; k < nx; k++) sx += max(0.0, 1.0 - abs(float(fx0 + k) - fx) / rx);
    for (int k = 0; k < ny; k++) sy += max(0.0, 1.0 - abs(float(fy0 + k) - fy) / ry);
    vec3 acc = vec3(0.0);
    for (int ky = 0; ky < ny; ky++) {
        float wy = sy > 0.0 ? max(0.0, 1.0 - abs(float(fy0 + ky) - fy) / ry) / sy : (ky == 0 ? 1.0 : 0.0);
        if (wy == 0.0) continue;
        int j = ((fy0 + ky) % uField.y + uField.y) % uField.y;
        for (int kx = 0; kx < nx; kx++) {
            float wx = sx > 0.0 ? max(0.0, 1.0 - abs(float(fx0 + kx) - fx) / rx) / sx : (kx == 0 ? 1.0 : 0.0);
            int i = ((fx0 + kx) % uField.x + uField.x) % uField.x;
            acc += (wy * wx) * fieldAt(j * uField.x + i);
        }
    }
    return acc;
}

vec3 kaleidoscope(ivec2 p) {
    float wedge = 3.14159265358979 / float(uAxes);
    float offset = 3.14159265358979 / 2.0 - wedge / 2.0;
    float dx = float(p.x) + 0.5 - float(uOut.x) / 2.0, dy = float(p.y) + 0.5 - float(uOut.y) / 2.0;
    float r = sqrt(dx * dx + dy * dy);
    float phi = mod(atan(dx, -dy), 2.0 * wedge);
    if (phi > wedge) phi = 2.0 * wedge - phi;
    float a = phi + offset;
    float fx = float(uField.x) / 2.0 + r * sin(a) * uScale;
    float fy = float(uField.y) / 2.0 - r * cos(a) * uScale;
    int ix = (int(floor(fx)) % uField.x + uField.x) % uField.x;
    int iy = (int(floor(fy)) % uField.y + uField.y) % uField.y;
    return fieldAt(iy * uField.x + ix);
}

void main() {
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    if (p.x >= uOut.x || p.y >= uOut.y) return;
    vec3 e = uMode == 0 ? fieldAt(p.y * uField.x + p.x) : (uMode == 1 ? resampled(p) : kaleidoscope(p));
    precise vec3 rgb;
    if (uAdditive) {
        precise vec3 light = vec3(uColor[0].r * e.x + uColor[1].r * e.y + uColor[2].r * e.z,
                                  uColor[0].g * e.x + uColor[1].g * e.y + uColor[2].g * e.z,
                                  uColor[0].b * e.x + uColor[1].b * e.y + uColor[2].b * e.z);
        vec3 l = filmic(light);
        rgb = uBackground + l - uBackground * l;
    } else {
        float a0 = filmic1(e.x), a1 = filmic1(e.y), a2 = filmic1(e.z);
        precise float t = (1.0 - a0) * (1.0 - a1) * (1.0 - a2);
        rgb = uBackground * t + (1.0 - a0 * uColor[0]) * (1.0 - a1 * uColor[1]) * (1.0 - a2 * uColor[2]) - t;
    }
    if (uFeedback > 0.0) {
        vec3 h = imageLoad(uHistory, p).rgb;
        rgb = rgb + (h - rgb) * uFeedback;
    }
    imageStore(uHistory, p, vec4(rgb, 1.0));
}
