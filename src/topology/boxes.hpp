// "N boxes of topology X joined by NICs": copies a box topology N times (vertex names get
// the prefix "b<k>."), optionally gives its GPUs NICs and joins the NICs by a network.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "base/limits.hpp"
#include "topology/topology.hpp"

namespace ccforge::topo {

inline constexpr int32_t kMaxBoxes = base::limits::kMaxBoxes;

struct NicSpec {
  int32_t gpusPerNic = 1;  // NIC j of a box serves the box's GPUs j*g .. j*g+g-1 (rank order)
  Rational bandwidthGBps;  // GPU <-> NIC, per direction
  double alphaUs = 0;
  LinkClass linkClass = LinkClass::PCIe;
};

enum class NetworkKind : uint8_t {
  Switch,  // every NIC to one switch "ib"
  Rails,   // NIC j of every box to leaf switch "ib<j mod switches>" (rail-optimized)
  Clos,    // every NIC of boxes k*b .. k*b+b-1 to leaf switch "leaf<k>" (b = boxesPerLeaf), a spine above
};

struct NetworkSpec {
  NetworkKind kind = NetworkKind::Switch;
  int32_t switches = 1;      // Rails only
  int32_t boxesPerLeaf = 1;  // Clos only
  Rational bandwidthGBps;    // NIC <-> switch, per direction
  double alphaUs = 0;
  LinkClass linkClass = LinkClass::Network;
  // A spine layer above the leaf switches (Rails: optional; Clos: required), built as one switch
  // "spine": the fluid model shares it as perfect ECMP over the spine switches would. Each leaf's
  // uplink carries the bandwidth of the NIC links on that leaf divided by this (1: full bisection).
  std::optional<Rational> spineOversubscription;
  double spineAlphaUs = 0;  // of each leaf <-> spine link
};

struct BoxesSpec {
  int32_t count = 1;
  std::optional<NicSpec> nics;
  std::optional<NetworkSpec> network;  // requires nics
  base::TextLocation where;
};

// Adds `spec.count` copies of `box` to `topology`. Box k's vertices get box index
// k * box.boxCount() + (their box index in `box`). NICs are named "b<k>.nic<j>".
// Throws std::invalid_argument with a user-facing message on nonsensical parameters.
void addBoxes(Topology& topology, const Topology& box, const BoxesSpec& spec);

// The vertex permutation that moves every copied vertex "b<k>.X" to "b<k+1 mod boxes>.X" (the
// names addBoxes and `topo import --boxes` give) and fixes the others, the network's switches;
// nullopt unless the names form whole copies of at least two boxes. A candidate symmetry only:
// check it with isAutomorphism (automorphisms.hpp) before relying on it.
std::optional<std::vector<int32_t>> boxRotation(const Topology& topology);

}  // namespace ccforge::topo
