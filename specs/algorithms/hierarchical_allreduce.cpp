// Hierarchical allreduce (MSCCLang paper §2, the guide's running example). With N nodes of G
// GPUs, the buffer is N*G chunks; GPU j of every node owns the group of N chunks j*N .. j*N+N-1.
//  1. ring reduce-scatter inside each node: group j, summed over the node, ends on GPU j
//     (one aggregated transfer of N chunks per hop);
//  2. ring reduce-scatter across nodes among the GPUs j: chunk j*N+m ends on node m;
//  3. ring allgather across nodes: chunk j*N+m reaches GPU j of every node;
//  4. ring allgather inside each node: group j reaches every GPU of the node.
// Parameter channels (library.cpp chooses the default): 1 moves each group as one transfer on the
// compiler's channels; more gives every chunk rings of its own on channel i mod channels.
#include "algorithms.hpp"
#include "support.hpp"

namespace ccforge::algorithms {

using ir::Buffer;

dsl::Program hierarchicalAllReduce(const Arguments& a, ir::Protocol protocol) {
  const int32_t nodes = arg(a, "nodes"), gpus = arg(a, "gpus"), channels = arg(a, "channels");
  require(nodes * gpus >= 2, "hierarchical-allreduce needs at least 2 ranks");
  auto rank = [&](int32_t node, int32_t gpu) { return node * gpus + gpu; };
  dsl::Program p("hierarchical_allreduce",
                 {.type = semantics::CollectiveType::AllReduce,
                  .ranks = nodes * gpus,
                  .chunkFactor = nodes * gpus,
                  .form = semantics::CallForm::InPlace},
                 {.protocol = protocol, .instances = arg(a, "instances")});
  // channels = 1: group j moves as one transfer of N chunks, channels assigned by the compiler.
  // channels > 1: every chunk i has rings of its own (msccl-tools' local_chunk_size 1) on channel
  // i mod channels, so the rings that share a link move their chunks side by side.
  const int32_t width = channels > 1 ? 1 : nodes;  // chunks per intra-node transfer
  auto on = [&](int32_t i) { return channels > 1 ? dsl::Directives{.ch = i % channels} : dsl::Directives{}; };
  // With more than 2 nodes a chunk's inter-node ring passes its owner GPU twice towards the same
  // next node, in the reduce-scatter (the chain's first node receives from the intra-node ring)
  // and in the allgather (from the previous node): on one channel that is one sender connection
  // for two thread blocks with different receive peers. The inter-node allgather moves to the
  // channel of the next group's chunk, whose rings pass this GPU only inside the node.
  auto allgatherAcross = [&](int32_t i) { return on(nodes > 2 ? (i + nodes) % (nodes * gpus) : i); };

  for (int32_t n = 0; n < nodes; ++n)
    for (int32_t i = 0; i < nodes * gpus; i += width) {
      const int32_t j = i / nodes;
      dsl::ChunkRef c = p.chunk(rank(n, (j + 1) % gpus), Buffer::Input, i, width);
      for (int32_t step = 2; step <= gpus; ++step)
        c = p.chunk(rank(n, (j + step) % gpus), Buffer::Input, i, width).reduce(c, on(i));
    }
  for (int32_t j = 0; j < gpus; ++j)
    for (int32_t m = 0; m < nodes; ++m) {
      const int32_t i = j * nodes + m;
      dsl::ChunkRef c = p.chunk(rank((m + 1) % nodes, j), Buffer::Input, i);
      for (int32_t step = 2; step <= nodes; ++step)
        c = p.chunk(rank((m + step) % nodes, j), Buffer::Input, i).reduce(c, on(i));
      for (int32_t step = 1; step < nodes; ++step)
        c = c.copy(rank((m + step) % nodes, j), Buffer::Input, i, allgatherAcross(i));
    }
  for (int32_t n = 0; n < nodes; ++n)
    for (int32_t i = 0; i < nodes * gpus; i += width) {
      const int32_t j = i / nodes;
      dsl::ChunkRef c = p.chunk(rank(n, j), Buffer::Input, i, width);
      for (int32_t step = 1; step < gpus; ++step) c = c.copy(rank(n, (j + step) % gpus), Buffer::Input, i, on(i));
    }
  return p;
}

}  // namespace ccforge::algorithms
