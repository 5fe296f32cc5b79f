// A change of agent counts: slot k of species s in the new buffer takes old
// agent start + (keep == old count ? k : k·old/keep) for k < keep (an even
// stride when shrinking, so no region empties); the rest are spawned on the
// CPU and uploaded.
layout(std430, binding = 0) readonly buffer OldAgents { vec4 oldAgents[]; };
layout(std430, binding = 1) readonly buffer OldPhases { uint oldPhases[]; };
layout(std430, binding = 2) writeonly buffer NewAgents { vec4 newAgents[]; };
layout(std430, binding = 3) writeonly buffer NewPhases { uint newPhases[]; };
uniform uint uOldStart, uOldCount, uNewStart, uKeep;

void main() {
    uint stride = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
    for (uint k = gl_GlobalInvocationID.x; k < uKeep; k += stride) {
        uint i = uOldStart + (uKeep == uOldCount ? k : uint(double(k) * double(uOldCount) / double(uKeep)));
        newAgents[uNewStart + k] = oldAgents[i];
        newPhases[uNewStart + k] = oldPhases[i];
    }
}
