#include "synth/trees/capacity_graph.hpp"

#include <utility>

#include "synth/flow/max_flow.hpp"

namespace ccforge::synth::trees {

CapacityGraph::CapacityGraph(int32_t vertices)
    : n_(vertices),
      cap_(static_cast<size_t>(vertices) * static_cast<size_t>(vertices), 0),
      source_(static_cast<size_t>(vertices), 0) {}

int64_t CapacityGraph::connectivity(int32_t sink) const {
  FlowNetwork network(n_ + 1);
  for (int32_t u = 0; u < n_; ++u) {
    if (fromSource(u) > 0) network.addEdge(source(), u, fromSource(u));
    for (int32_t w = 0; w < n_; ++w)
      if (at(u, w) > 0) network.addEdge(u, w, at(u, w));
  }
  return network.maxFlow(source(), sink);
}

ConnectivityGuard::ConnectivityGuard(const CapacityGraph& graph, std::vector<int32_t> sinks)
    : sinks_(std::move(sinks)), lower_(sinks_.size(), 0) {
  refresh(graph);
}

void ConnectivityGuard::refresh(const CapacityGraph& graph) {
  for (size_t i = 0; i < sinks_.size(); ++i) lower_[i] = graph.connectivity(sinks_[i]);
  maxFlows_ += static_cast<int64_t>(sinks_.size());
}

bool ConnectivityGuard::admits(const CapacityGraph& graph, int64_t need, int64_t drop) {
  std::vector<int64_t> next = lower_;
  for (size_t i = 0; i < sinks_.size(); ++i) {
    next[i] -= drop;
    if (next[i] >= need) continue;
    next[i] = graph.connectivity(sinks_[i]);
    ++maxFlows_;
    if (next[i] < need) return false;
  }
  lower_ = std::move(next);
  return true;
}

}  // namespace ccforge::synth::trees
