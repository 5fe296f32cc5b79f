// dst += bilinear ×2 upsample of the coarser level (edges clamped): pixel x
// samples source position (x + 0.5)/2 − 0.5, weights ¼ and ¾.
layout(rgba32f, binding = 0) readonly uniform image2D uSrc;
layout(rgba32f, binding = 1) uniform image2D uDst;
uniform ivec2 uSrcSize, uDstSize;

vec3 rowAt(int i, int r0, int r1, float wb) {
    int x = clamp(i, 0, uSrcSize.x - 1);
    precise vec3 v = imageLoad(uSrc, ivec2(x, r0)).rgb * (1.0 - wb) + imageLoad(uSrc, ivec2(x, r1)).rgb * wb;
    return v;
}

void main() {
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    if (p.x >= uDstSize.x || p.y >= uDstSize.y) return;
    int j = p.y >> 1;
    int ra = (p.y & 1) == 0 ? j - 1 : j, rb = (p.y & 1) == 0 ? j : j + 1;
    float wb = (p.y & 1) == 0 ? 0.75 : 0.25;
    int r0 = clamp(ra, 0, uSrcSize.y - 1), r1 = clamp(rb, 0, uSrcSize.y - 1);
    int i = p.x >> 1;
    vec3 mid = rowAt(i, r0, r1, wb);
    precise vec3 add = (p.x & 1) == 0 ? 0.25 * rowAt(i - 1, r0, r1, wb) + 0.75 * mid
                                      : 0.75 * mid + 0.25 * rowAt(i + 1, r0, r1, wb);
    imageStore(uDst, p, vec4(imageLoad(uDst, p).rgb + add, 1.0));
}
