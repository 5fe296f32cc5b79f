// Tile sort, pass 1 of 3 (every 16 steps, where the CPU engine sorts): count
// the agents of each (species, 32×32 tile) key. Neighbouring invocations then
// read neighbouring texels and add into neighbouring counts.
layout(std430, binding = 0) readonly buffer Agents { vec4 agents[]; };
layout(std430, binding = 1) writeonly buffer Keys { uint keys[]; };
layout(std430, binding = 2) buffer Buckets { uint buckets[]; };
uniform uint uStart[4];
uniform int uTilesX, uTiles;

void main() {
    uint total = uStart[3];
    uint stride = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
    for (uint i = gl_GlobalInvocationID.x; i < total; i += stride) {
        int s = i < uStart[1] ? 0 : (i < uStart[2] ? 1 : 2);
        vec4 a = agents[i];
        int tx = min(int(a.x) / 32, uTilesX - 1), ty = int(a.y) / 32;
        uint key = uint(s * uTiles + ty * uTilesX + tx);
        keys[i] = key;
        atomicAdd(buckets[key], 1u);
    }
}
