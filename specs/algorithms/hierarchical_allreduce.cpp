// Hierarchical allreduce (MSCCLang paper §2, the guide's running example). With N nodes of G
// GPUs, the buffer is N*G chunks; GPU j of every node owns the group of N chunks j*N .. j*N+N-1.
//  1. ring reduce-scatter inside each node: group j, summed over the node, ends on GPU j
//     (one aggregated transfer of N chunks per hop);
//  2. ring reduce-scatter across nodes among the GPUs j: chunk j*N+m ends on node m;
//  3. ring allgather across nodes: chunk j*N+m reaches GPU j of every node;
//  4. ring allgather inside each node: group j reaches every GPU of the node.
#include "algorithms.hpp"
#include "support.hpp"

namespace ccforge::algorithms {

using ir::Buffer;

dsl::Program hierarchicalAllReduce(const Arguments& a, ir::Protocol protocol) {
  const int32_t nodes = arg(a, "nodes"), gpus = arg(a, "gpus");
  require(nodes * gpus >= 2, "hierarchical-allreduce needs at least 2 ranks");
  auto rank = [&](int32_t node, int32_t gpu) { return node * gpus + gpu; };
  dsl::Program p("hierarchical_allreduce",
                 {.type = CollectiveType::AllReduce, .ranks = nodes * gpus, .chunkFactor = nodes * gpus,
                  .form = CallForm::InPlace},
                 {.protocol = protocol, .instances = arg(a, "instances")});

  for (int32_t n = 0; n < nodes; ++n)
    for (int32_t j = 0; j < gpus; ++j) {
      dsl::ChunkRef c = p.chunk(rank(n, (j + 1) % gpus), Buffer::Input, j * nodes, nodes);
      for (int32_t step = 2; step <= gpus; ++step)
        c = p.chunk(rank(n, (j + step) % gpus), Buffer::Input, j * nodes, nodes).reduce(c);
    }
  for (int32_t j = 0; j < gpus; ++j)
    for (int32_t m = 0; m < nodes; ++m) {
      dsl::ChunkRef c = p.chunk(rank((m + 1) % nodes, j), Buffer::Input, j * nodes + m);
      for (int32_t step = 2; step <= nodes; ++step)
        c = p.chunk(rank((m + step) % nodes, j), Buffer::Input, j * nodes + m).reduce(c);
      for (int32_t step = 1; step < nodes; ++step) c = c.copy(rank((m + step) % nodes, j), Buffer::Input, j * nodes + m);
    }
  for (int32_t n = 0; n < nodes; ++n)
    for (int32_t j = 0; j < gpus; ++j) {
      dsl::ChunkRef c = p.chunk(rank(n, j), Buffer::Input, j * nodes, nodes);
      for (int32_t step = 1; step < gpus; ++step) c = c.copy(rank(n, (j + step) % gpus), Buffer::Input, j * nodes);
    }
  return p;
}

}  // namespace ccforge::algorithms
