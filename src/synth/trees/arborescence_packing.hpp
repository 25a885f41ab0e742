// Packing out-arborescences (spanning out-trees) rooted at every vertex, k per root, into a
// graph with integer capacities: Lovász's constructive proof of Edmonds' branching theorem,
// with multiplicities. A tree grows one edge at a time; an edge is kept only while every
// vertex keeps connectivity (trees still to pack) from the super source, so the packing
// always completes when the condition holds at the start (with multiplicity 1; larger
// multiplicities are tried first and halved when a tree gets stuck).
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "synth/trees/capacity_graph.hpp"
#include "synth/trees/deadline.hpp"

namespace ccforge::synth::trees {

struct Arborescence {
  int32_t root = 0;
  int64_t multiplicity = 1;                        // identical copies: this many of the root's k pieces follow it
  std::vector<std::pair<int32_t, int32_t>> edges;  // (parent, child); a parent's edge comes first
};

struct Packing {
  int32_t vertices = 0;
  int64_t treesPerRoot = 0;
  std::vector<Arborescence> trees;  // by root, then in packing order
  int64_t maxFlows = 0;
};

// `graph.fromSource(v)` must be treesPerRoot for every vertex and connectivity from the super
// source at least treesPerRoot * vertices everywhere (else std::invalid_argument). Throws
// SynthesisLimit past the deadline.
Packing packArborescences(CapacityGraph graph, int64_t treesPerRoot, const Deadline& deadline);

// The number of trees (with multiplicity) using each ordered pair (u * vertices + w), for
// checks and reports.
std::vector<int64_t> edgeLoads(const Packing& packing);
// The most edges from a root to a vertex in any tree.
int32_t depth(const Packing& packing);

}  // namespace ccforge::synth::trees
