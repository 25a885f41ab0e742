// The automorphism group of a topology: vertex permutations that keep vertex kinds and map
// every link onto a link (with equal bandwidth, alpha and link class when weighted).
// Individualisation and refinement with a stabiliser chain; graphs are compared up to
// isomorphism, never by their labelling.
#pragma once

#include <cstdint>
#include <vector>

#include "base/limits.hpp"
#include "topology/topology.hpp"

namespace ccforge::topo {

enum class Weighting : uint8_t {
  Weighted,    // links must keep bandwidth, alpha and link class
  Unweighted,  // only the existence (and direction) of a link counts
};

struct AutomorphismGroup {
  BigInt order = 1;                              // exact when complete, else a lower bound
  bool complete = true;                          // false when the search reached its work limit
  std::vector<std::vector<int32_t>> generators;  // generator[v] = image of vertex v
  std::vector<int32_t> vertexOrbit;              // per vertex: the smallest vertex id of its orbit
};

// Work is counted in refinement entries (one per vertex and link per refinement round,
// times the logarithm that sorting adds); the default (limits::kAutomorphismWorkLimit) costs a
// few seconds on the 2-core machine: catalog machines complete well within it, a 4096-GPU ring
// does not. Past it the group found so far (a subgroup: every generator is a genuine
// automorphism) is returned, complete = false.
inline constexpr uint64_t kDefaultAutomorphismWorkLimit = base::limits::kAutomorphismWorkLimit;

AutomorphismGroup automorphisms(const Topology& topology, Weighting weighting,
                                uint64_t workLimit = kDefaultAutomorphismWorkLimit);

// Is `image` (image[v]: where vertex v goes) an automorphism: a permutation of the vertices that
// keeps their kinds and maps every link onto a link (weighted: of equal bandwidth, alpha and
// link class)? Checks a symmetry known from how the topology was built (boxes.hpp boxRotation)
// where the search above stops at its work limit.
bool isAutomorphism(const Topology& topology, const std::vector<int32_t>& image, Weighting weighting);

// Per link: the smallest link id of its orbit under the group's generators.
std::vector<int32_t> linkOrbits(const Topology& topology, const AutomorphismGroup& group);

}  // namespace ccforge::topo
