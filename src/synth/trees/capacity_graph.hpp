// A directed graph with integer capacities on ordered vertex pairs, plus a super source
// with an integer capacity to each vertex: the object of ForestColl's tree-packing condition
// (docs/synth-trees.md). Dense storage: the graphs here have at most a few hundred vertices.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace ccforge::synth::trees {

class CapacityGraph {
 public:
  explicit CapacityGraph(int32_t vertices);

  int32_t vertices() const { return n_; }
  int32_t source() const { return n_; }  // the super source's index in flow networks
  int64_t& at(int32_t from, int32_t to) { return cap_[index(from, to)]; }
  int64_t at(int32_t from, int32_t to) const { return cap_[index(from, to)]; }
  int64_t& fromSource(int32_t to) { return source_[static_cast<size_t>(to)]; }
  int64_t fromSource(int32_t to) const { return source_[static_cast<size_t>(to)]; }

  // The maximum flow from the super source to `sink`.
  int64_t connectivity(int32_t sink) const;

 private:
  size_t index(int32_t from, int32_t to) const {
    return static_cast<size_t>(from) * static_cast<size_t>(n_) + static_cast<size_t>(to);
  }
  int32_t n_;
  std::vector<int64_t> cap_;
  std::vector<int64_t> source_;
};

// Decides "connectivity(v) >= need for every sink v" after edits that each lower every
// connectivity by a known amount at most, recomputing a max-flow only where the lower bound
// it keeps per sink no longer proves the condition.
class ConnectivityGuard {
 public:
  ConnectivityGuard(const CapacityGraph& graph, std::vector<int32_t> sinks);

  // Exact connectivities, recomputed.
  void refresh(const CapacityGraph& graph);
  // Whether every sink still has `need`, given that `graph` differs from the last accepted
  // state by edits lowering any connectivity by at most `drop`. On true the bounds are updated
  // (the caller keeps the edit); on false they are kept (the caller undoes the edit).
  bool admits(const CapacityGraph& graph, int64_t need, int64_t drop);
  int64_t maxFlows() const { return maxFlows_; }

 private:
  std::vector<int32_t> sinks_;
  std::vector<int64_t> lower_;
  int64_t maxFlows_ = 0;
};

}  // namespace ccforge::synth::trees
