// Tile sort, pass 2 of 3: exclusive prefix sum of the bucket counts in place
// (one work group; each invocation sums a run of buckets, the runs' totals
// are scanned in shared memory). Species are the keys' major order, so each
// species' agents stay in its own index range.
layout(std430, binding = 2) buffer Buckets { uint buckets[]; };
uniform int uKeys;
shared uint partial[256];

void main() {
    uint t = gl_LocalInvocationID.x;
    uint n = uint(uKeys);
    uint run = (n + 255u) / 256u;
    uint begin = min(t * run, n), end = min(begin + run, n);
    uint sum = 0u;
    for (uint k = begin; k < end; k++) sum += buckets[k];
    partial[t] = sum;
    barrier();
    if (t == 0u) {
        uint acc = 0u;
        for (uint k = 0u; k < 256u; k++) { uint v = partial[k]; partial[k] = acc; acc += v; }
    }
    barrier();
    uint acc = partial[t];
    for (uint k = begin; k < end; k++) { uint v = buckets[k]; buckets[k] = acc; acc += v; }
}
