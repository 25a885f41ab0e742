// Exact maximum flow on integer capacities (Boost Graph's push-relabel), with the source
// side of a minimum cut.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

namespace ccforge::synth {

class FlowNetwork {
 public:
  explicit FlowNetwork(int32_t vertices);
  ~FlowNetwork();
  FlowNetwork(const FlowNetwork&) = delete;
  FlowNetwork& operator=(const FlowNetwork&) = delete;

  // Capacities are >= 0 and their sum must fit in int64 (callers scale exactly).
  void addEdge(int32_t from, int32_t to, int64_t capacity);
  int64_t maxFlow(int32_t source, int32_t sink);
  // After maxFlow: the vertices reachable from the source in the residual network.
  std::vector<bool> sourceSide(int32_t source) const;

 private:
  struct Graph;
  std::unique_ptr<Graph> graph_;
};

}  // namespace ccforge::synth
