// Tile sort, passes 1 and 3 of 3 (every 16 steps, where the CPU engine
// sorts): uPass 0 counts the agents of each (species, 32×32 tile) key,
// uPass 1 gives each agent the next slot of its bucket. Species are the
// keys' major order, so each species' agents stay in its own index range.
//
// The agents are already nearly sorted, so neighbouring invocations share a
// key: a work group finds its runs of equal keys in shared memory and makes
// one atomic add per run (not per agent), which keeps hot tiles from
// serialising the atomics. The order inside a run is kept; between work
// groups it follows the atomics, so on the GPU the agents' random draws,
// which follow their index, differ from run to run.
layout(std430, binding = 0) readonly buffer Agents { vec4 agents[]; };
layout(std430, binding = 1) buffer Keys { uint keys[]; };
layout(std430, binding = 2) buffer Buckets { uint buckets[]; };
layout(std430, binding = 3) readonly buffer Phases { uint phases[]; };
layout(std430, binding = 4) writeonly buffer SortedAgents { vec4 sortedAgents[]; };
layout(std430, binding = 5) writeonly buffer SortedPhases { uint sortedPhases[]; };
uniform uint uStart[4];
uniform int uTilesX, uTiles;
uniform int uPass;
const uint kNone = 0xFFFFFFFFu;
shared uint sKey[gl_WorkGroupSize.x];
shared uint sHead[gl_WorkGroupSize.x];
shared uint sLen[gl_WorkGroupSize.x];

uint keyOf(uint i) {
    int s = i < uStart[1] ? 0 : (i < uStart[2] ? 1 : 2);
    vec4 a = agents[i];
    int tx = min(int(a.x) / 32, uTilesX - 1), ty = int(a.y) / 32;
    return uint(s * uTiles + ty * uTilesX + tx);
}

void main() {
    uint total = uStart[3];
    uint n = gl_WorkGroupSize.x, t = gl_LocalInvocationID.x;
    uint stride = gl_NumWorkGroups.x * n;
    // The loop bound is the same for the whole group (barriers inside).
    for (uint base = gl_WorkGroupID.x * n; base < total; base += stride) {
        uint i = base + t;
        uint key = kNone;
        if (i < total) {
            key = uPass == 0 ? keyOf(i) : keys[i];
            if (uPass == 0) keys[i] = key;
        }
        sKey[t] = key;
        barrier();
        // Each invocation's run head: a running maximum of head positions.
        sHead[t] = (t == 0u || sKey[t - 1u] != key) ? t : 0u;
        barrier();
        for (uint off = 1u; off < n; off <<= 1) {
            uint h = sHead[t];
            if (t >= off) h = max(h, sHead[t - off]);
            barrier();
            sHead[t] = h;
            barrier();
        }
        uint head = sHead[t];
        if (t == n - 1u || sKey[t + 1u] != key) sLen[head] = t - head + 1u;
        barrier();
        if (key != kNone && head == t) {
            if (uPass == 0) atomicAdd(buckets[key], sLen[t]);
            else sLen[t] = atomicAdd(buckets[key], sLen[t]);   // the run's first slot
        }
        barrier();
        if (uPass == 1 && key != kNone) {
            uint slot = sLen[head] + (t - head);
            sortedAgents[slot] = agents[i];
            sortedPhases[slot] = phases[i];
        }
        barrier();
    }
}
