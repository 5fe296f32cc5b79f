// Tile sort, pass 3 of 3: each agent takes the next slot of its bucket. The
// order inside a tile follows the atomics (not stable), so on the GPU the
// agents' random draws, which follow their index, differ from run to run.
layout(std430, binding = 0) readonly buffer Agents { vec4 agents[]; };
layout(std430, binding = 1) readonly buffer Keys { uint keys[]; };
layout(std430, binding = 2) buffer Buckets { uint buckets[]; };
layout(std430, binding = 3) readonly buffer Phases { uint phases[]; };
layout(std430, binding = 4) writeonly buffer SortedAgents { vec4 sortedAgents[]; };
layout(std430, binding = 5) writeonly buffer SortedPhases { uint sortedPhases[]; };
uniform uint uTotal;

void main() {
    uint stride = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
    for (uint i = gl_GlobalInvocationID.x; i < uTotal; i += stride) {
        uint slot = atomicAdd(buckets[keys[i]], 1u);
        sortedAgents[slot] = agents[i];
        sortedPhases[slot] = phases[i];
    }
}
