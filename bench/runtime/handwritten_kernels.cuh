// The GPU benchmark's baseline: the same algorithms as the benchmarked MSCCL-IR programs, written
// by hand for ranks that share one GPU. Ranks read each other's buffers directly (no FIFOs, no
// interpreter), and a grid-wide barrier separates the algorithm's steps. f32 sum only.
#pragma once

#include <cooperative_groups.h>

#include <cstdint>

namespace ccforge::runtime::bench {

struct RankPointers {
  const float* in[64];
  float* out[64];
  float* scratch[64];
};

// dst[i] = a[i] (+ b[i] when b is set), over the whole grid, 16 bytes at a time when aligned.
__device__ inline void gridCombine(float* dst, const float* a, const float* b, int64_t n) {
  namespace cg = cooperative_groups;
  const int64_t thread = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const int64_t threads = static_cast<int64_t>(gridDim.x) * blockDim.x;
  const bool aligned =
      ((reinterpret_cast<uintptr_t>(dst) | reinterpret_cast<uintptr_t>(a) | reinterpret_cast<uintptr_t>(b)) & 15) == 0;
  int64_t done = 0;
  if (aligned) {
    const int64_t vectors = n / 4;
    for (int64_t v = thread; v < vectors; v += threads) {
      float4 x = __ldcg(reinterpret_cast<const float4*>(a) + v);
      if (b) {
        const float4 y = __ldcg(reinterpret_cast<const float4*>(b) + v);
        x.x += y.x;
        x.y += y.y;
        x.z += y.z;
        x.w += y.w;
      }
      reinterpret_cast<float4*>(dst)[v] = x;
    }
    done = vectors * 4;
  }
  for (int64_t i = done + thread; i < n; i += threads) dst[i] = b ? a[i] + b[i] : a[i];
}

__device__ inline int wrap(int a, int n) { return ((a % n) + n) % n; }

// Ring: N-1 reduce-scatter steps (rank r adds its input to the partial sum of rank r-1), then
// N-1 allgather steps (rank r copies the finished group of rank r-1).
__global__ void handwrittenRingAllReduce(RankPointers p, int ranks, int64_t chunk) {
  namespace cg = cooperative_groups;
  cg::grid_group grid = cg::this_grid();
  for (int s = 0; s + 1 < ranks; ++s) {
    for (int r = 0; r < ranks; ++r) {
      const int g = wrap(r - s - 1, ranks), prev = wrap(r - 1, ranks);
      const float* partial = s == 0 ? p.in[prev] + g * chunk : p.out[prev] + g * chunk;
      gridCombine(p.out[r] + g * chunk, p.in[r] + g * chunk, partial, chunk);
    }
    grid.sync();
  }
  for (int s = 0; s + 1 < ranks; ++s) {
    for (int r = 0; r < ranks; ++r) {
      const int g = wrap(r - s, ranks), prev = wrap(r - 1, ranks);
      gridCombine(p.out[r] + g * chunk, p.out[prev] + g * chunk, nullptr, chunk);
    }
    grid.sync();
  }
}

// All-pairs: rank r sums shard r over every rank's input, then every rank copies every shard.
__global__ void handwrittenAllPairsAllReduce(RankPointers p, int ranks, int64_t chunk) {
  namespace cg = cooperative_groups;
  cg::grid_group grid = cg::this_grid();
  for (int r = 0; r < ranks; ++r) {
    gridCombine(p.out[r] + r * chunk, p.in[0] + r * chunk, p.in[1] + r * chunk, chunk);
    for (int q = 2; q < ranks; ++q) gridCombine(p.out[r] + r * chunk, p.out[r] + r * chunk, p.in[q] + r * chunk, chunk);
  }
  grid.sync();
  for (int r = 0; r < ranks; ++r)
    for (int g = 0; g < ranks; ++g)
      if (g != r) gridCombine(p.out[r] + g * chunk, p.out[g] + g * chunk, nullptr, chunk);
}

// Two-step alltoall over nodes x perNode ranks: chunks for another node first go to the local
// relay with the destination's local index (its scratch), which then delivers them.
__global__ void handwrittenTwoStepAllToAll(RankPointers p, int nodes, int perNode, int64_t chunk) {
  namespace cg = cooperative_groups;
  cg::grid_group grid = cg::this_grid();
  const int ranks = nodes * perNode;
  auto slot = [&](int relayNode, int otherNode, int source) {
    return ((otherNode < relayNode ? otherNode : otherNode - 1) * perNode + source) * chunk;
  };
  for (int src = 0; src < ranks; ++src) {
    const int n = src / perNode, g = src % perNode;
    for (int dst = 0; dst < ranks; ++dst) {
      const int dn = dst / perNode, dg = dst % perNode;
      if (dn == n)
        gridCombine(p.out[dst] + src * chunk, p.in[src] + dst * chunk, nullptr, chunk);
      else
        gridCombine(p.scratch[n * perNode + dg] + slot(n, dn, g), p.in[src] + dst * chunk, nullptr, chunk);
    }
  }
  grid.sync();
  for (int relay = 0; relay < ranks; ++relay) {
    const int n = relay / perNode, g = relay % perNode;
    for (int other = 0; other < nodes; ++other) {
      if (other == n) continue;
      gridCombine(p.out[other * perNode + g] + n * perNode * chunk, p.scratch[relay] + slot(n, other, 0), nullptr,
                  perNode * chunk);
    }
  }
}

}  // namespace ccforge::runtime::bench
