// 2×2 average of the finer bloom level (edges clamped).
layout(rgba32f, binding = 0) readonly uniform image2D uSrc;
layout(rgba32f, binding = 1) writeonly uniform image2D uDst;
uniform ivec2 uSrcSize, uDstSize;

void main() {
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    if (p.x >= uDstSize.x || p.y >= uDstSize.y) return;
    int x0 = min(2 * p.x, uSrcSize.x - 1), x1 = min(2 * p.x + 1, uSrcSize.x - 1);
    int y0 = min(2 * p.y, uSrcSize.y - 1), y1 = min(2 * p.y + 1, uSrcSize.y - 1);
    precise vec3 v = 0.25 * ((imageLoad(uSrc, ivec2(x0, y0)).rgb + imageLoad(uSrc, ivec2(x1, y0)).rgb)
                           + (imageLoad(uSrc, ivec2(x0, y1)).rgb + imageLoad(uSrc, ivec2(x1, y1)).rgb));
    imageStore(uDst, p, vec4(v, 1.0));
}
