// Where each IR connection runs on a topology: rank r is the topology's r-th GPU, and a
// connection takes a direct link or a route through switches and NICs. GPUs do not forward in
// hardware, except where the topology's fabric relays (`Topology::gpuRelay`, AMD Infinity Fabric):
// there a route may also pass through other GPUs, entering and leaving each over GPU-GPU links.
// Where the topology has NCCL's PXN (`Topology::pxn`), a route between boxes passes through the
// sender-box GPU with the receiver's index in its box and leaves through that GPU's NIC.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "topology/topology.hpp"

namespace ccforge::topo {

struct Route {
  std::vector<int32_t> links;                           // link ids from the sender's GPU to the receiver's
  double alphaUs = 0;                                   // sum of the links' alphas
  topo::LinkClass linkClass = topo::LinkClass::NVLink;  // the slowest kind on the way
};

// May a route pass through GPU `gpu`, entered from vertex `from`? Only where the fabric relays,
// and only from another GPU (a relayed route then leaves `gpu` for a GPU as well).
inline bool relaysThrough(const Topology& topology, int32_t from, int32_t gpu) {
  return topology.gpuRelay && topology.isCompute(from) && topology.isCompute(gpu);
}

// Between boxes with PXN: the PXN route when it exists (sender to proxy over the box's own links,
// the proxy's first NIC, the fewest switches, the receiver's first NIC). Otherwise the route with
// the fewest links; nullopt when there is none. Among equally short routes: where the fabric
// relays, the widest bottleneck, then the lowest vertex ids along the way (GPUs in rank order);
// elsewhere the first found in link order.
std::optional<Route> routeBetween(const topo::Topology& topology, int32_t fromRank, int32_t toRank);

// The fewest links (first found in link order) from rank to rank through any switch or NIC and
// through GPUs of the two ranks' boxes, as if those GPUs forwarded: where boxes are joined by
// GPU-GPU links rather than NICs (the synthesizers' link models, the link standing for the NIC next
// to its GPU), or where a program relays by steps of its own. nullopt when there is none.
std::optional<Route> relayedRoute(const Topology& topology, int32_t fromRank, int32_t toRank);

// The links of the host path (Topology::hostPath) as ids after the topology's own links: GPU of
// rank r to host memory is links().size() + 2r, host memory to it links().size() + 2r + 1.
inline int32_t hostUpLink(const Topology& t, int32_t rank) { return static_cast<int32_t>(t.links().size()) + 2 * rank; }
inline int32_t hostDownLink(const Topology& t, int32_t rank) { return hostUpLink(t, rank) + 1; }

// The route the simulator takes: routeBetween's, else, between GPUs of one box where the spec
// has a host path, up to host memory and down again (class PCIe, both alphas), and between boxes
// with PXN the fewest links through GPUs of the two boxes (boxes joined by GPU-GPU links, the
// synthesizers' link models, where the link stands for the NIC next to its GPU). nullopt when
// none exists.
std::optional<Route> simulatorRoute(const Topology& topology, int32_t fromRank, int32_t toRank);

}  // namespace ccforge::topo
