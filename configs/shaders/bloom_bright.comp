// Bloom level 0 (¼ of the output per side): the mean bright-pass of each
// 4×4 block of the history — what is brighter than the background, above
// the threshold in luma.
layout(rgba32f, binding = 0) readonly uniform image2D uHistory;
layout(rgba32f, binding = 1) writeonly uniform image2D uLevel;
uniform ivec2 uOut;
uniform ivec2 uSize;        // level 0 size
uniform vec3 uBackground;
uniform float uThreshold;
const vec3 luma = vec3(0.2126, 0.7152, 0.0722);

vec3 bright(ivec2 q) {
    vec3 c = imageLoad(uHistory, q).rgb;
    vec3 d = max(c - uBackground, vec3(0.0));
    precise float lum = luma.r * d.r + luma.g * d.g + luma.b * d.b;
    float f = max(lum - uThreshold, 0.0) / max(lum, 1e-6);
    return d * f;
}

void main() {
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    if (p.x >= uSize.x || p.y >= uSize.y) return;
    vec3 col[4];
    for (int k = 0; k < 4; k++) {
        vec3 acc = vec3(0.0);
        int x = 4 * p.x + k;
        for (int r = 0; r < 4; r++) {
            int y = 4 * p.y + r;
            if (x < uOut.x && y < uOut.y) acc += bright(ivec2(x, y));
        }
        col[k] = acc;
    }
    precise vec3 sum = ((col[0] + col[1]) + (col[2] + col[3])) * (1.0 / 16.0);
    imageStore(uLevel, p, vec4(sum, 1.0));
}
