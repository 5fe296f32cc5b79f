// One direction of the separable 9-tap Gaussian (σ = 2 level pixels), edges clamped.
layout(rgba32f, binding = 0) readonly uniform image2D uSrc;
layout(rgba32f, binding = 1) writeonly uniform image2D uDst;
uniform ivec2 uSize;
uniform ivec2 uStep;        // (1, 0) horizontal, (0, 1) vertical
uniform float uKernel[9];

void main() {
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    if (p.x >= uSize.x || p.y >= uSize.y) return;
    precise vec3 acc = vec3(0.0);
    for (int j = 0; j < 9; j++) {
        ivec2 q = clamp(p + (j - 4) * uStep, ivec2(0), uSize - 1);
        acc += uKernel[j] * imageLoad(uSrc, q).rgb;
    }
    imageStore(uDst, p, vec4(acc, 1.0));
}
