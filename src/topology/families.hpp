// Generators for topology families: ring, line, star, fully connected, switch (hub and
// spoke), mesh, torus and hypercube. GPUs are named gpu0..gpuN-1, a switch "sw".
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "base/limits.hpp"
#include "topology/topology.hpp"

namespace ccforge::topo {

enum class Family : uint8_t { Ring, Line, Star, FullyConnected, Switch, Mesh, Torus, Hypercube };
std::string_view familyName(Family f);
std::optional<Family> parseFamily(std::string_view name);

inline constexpr int32_t kMaxFamilyGpus = base::limits::kMaxFamilyGpus;
inline constexpr int32_t kMaxFullyConnectedGpus = base::limits::kMaxFullyConnectedGpus;

struct FamilySpec {
  Family family = Family::Ring;
  // ring, line, star, fully connected, switch: {n}; mesh, torus: the extent of each dimension
  // (1 to 3 of them); hypercube: {dimension}.
  std::vector<int32_t> shape;
  Rational bandwidthGBps = 1;  // every link, per direction
  double alphaUs = 0;
  LinkClass linkClass = LinkClass::NVLink;
  bool directed = false;  // ring and torus only: links only in the + direction
  base::TextLocation where;
};

// Adds the family's vertices and links. Throws std::invalid_argument with a user-facing
// message when the shape makes no sense (n < 1, too many GPUs, `directed` on a line, ...).
void addFamily(Topology& topology, const FamilySpec& spec);

// A topology holding only one family with the spec's defaults (1 GB/s NVLink links, alpha 0).
Topology familyTopology(Family f, std::vector<int32_t> shape, bool directed = false);

}  // namespace ccforge::topo
