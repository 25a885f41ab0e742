#include "topology/boxes.hpp"

#include <algorithm>
#include <charconv>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace ccforge::topo {
namespace {

// Built by appending: GCC 12 warns falsely (-Wrestrict) on chained temporaries here.
std::string prefixed(int32_t box, std::string_view name) {
  std::string out = "b";
  out += std::to_string(box);
  out += '.';
  out += name;
  return out;
}

}  // namespace

void addBoxes(Topology& topology, const Topology& box, const BoxesSpec& spec) {
  if (spec.count < 1 || spec.count > kMaxBoxes)
    throw std::invalid_argument("box count must be 1 to " + std::to_string(kMaxBoxes));
  if (spec.network && !spec.nics) throw std::invalid_argument("a network joins NICs: give 'nics' as well");
  const auto gpusPerBox = static_cast<int32_t>(box.gpus().size());
  int32_t nicsPerBox = 0;
  if (spec.nics) {
    int32_t g = spec.nics->gpusPerNic;
    if (g < 1 || gpusPerBox % g != 0)
      throw std::invalid_argument("gpus_per_nic must divide the " + std::to_string(gpusPerBox) + " GPUs of a box");
    nicsPerBox = gpusPerBox / g;
  }
  if (spec.network && spec.network->kind == NetworkKind::Rails &&
      (spec.network->switches < 1 || spec.network->switches > nicsPerBox))
    throw std::invalid_argument("rails: switches must be 1 to the " + std::to_string(nicsPerBox) + " NICs of a box");
  if (spec.network && spec.network->kind == NetworkKind::Clos) {
    if (spec.network->boxesPerLeaf < 1 || spec.network->boxesPerLeaf > spec.count)
      throw std::invalid_argument("clos: boxes_per_leaf must be 1 to the " + std::to_string(spec.count) + " boxes");
    if (!spec.network->spineOversubscription)
      throw std::invalid_argument("clos: give spine_oversubscription (1 for full bisection)");
  }
  if (spec.network && spec.network->spineOversubscription && *spec.network->spineOversubscription <= 0)
    throw std::invalid_argument("spine_oversubscription must be positive");

  const int32_t innerBoxes = box.boxCount();
  std::vector<int32_t> nics;
  for (int32_t k = 0; k < spec.count; ++k) {
    auto base = static_cast<int32_t>(topology.vertices().size());
    for (const Vertex& v : box.vertices())
      topology.addVertex({prefixed(k, v.name), v.kind, k * innerBoxes + v.box, spec.where});
    for (const Link& l : box.links())
      topology.addLink({base + l.from, base + l.to, l.bandwidthGBps, l.alphaUs, l.linkClass, spec.where});
    for (int32_t j = 0; j < nicsPerBox; ++j) {
      const NicSpec& nic = *spec.nics;
      int32_t id =
          topology.addVertex({prefixed(k, "nic" + std::to_string(j)), VertexKind::Nic, k * innerBoxes, spec.where});
      for (int32_t i = j * nic.gpusPerNic; i < (j + 1) * nic.gpusPerNic; ++i) {
        int32_t gpu = base + box.gpus()[static_cast<size_t>(i)];
        topology.addLink({gpu, id, nic.bandwidthGBps, nic.alphaUs, nic.linkClass, spec.where});
        topology.addLink({id, gpu, nic.bandwidthGBps, nic.alphaUs, nic.linkClass, spec.where});
      }
      nics.push_back(id);
    }
  }
  if (!spec.network) return;

  const NetworkSpec& net = *spec.network;
  // Leaf of the n-th NIC (box n / nicsPerBox, index n % nicsPerBox).
  auto leafOf = [&](size_t n) -> int32_t {
    const auto j = static_cast<int32_t>(n) % nicsPerBox;
    const auto boxIndex = static_cast<int32_t>(n) / nicsPerBox;
    switch (net.kind) {
      case NetworkKind::Switch: return 0;
      case NetworkKind::Rails: return j % net.switches;
      case NetworkKind::Clos: return boxIndex / net.boxesPerLeaf;
    }
    return 0;
  };
  // Clos: ceil(count / boxesPerLeaf) leaves, without the count + boxesPerLeaf - 1 of the usual idiom
  // (topology may not include semantics/size_arithmetic.hpp's ceilDiv; count <= kMaxBoxes anyway).
  const int32_t leafCount = net.kind == NetworkKind::Switch ? 1
                            : net.kind == NetworkKind::Rails
                                ? net.switches
                                : spec.count / net.boxesPerLeaf + (spec.count % net.boxesPerLeaf != 0 ? 1 : 0);
  std::vector<int32_t> leaves;
  for (int32_t s = 0; s < leafCount; ++s) {
    std::string name = net.kind == NetworkKind::Switch  ? "ib"
                       : net.kind == NetworkKind::Rails ? "ib" + std::to_string(s)
                                                        : "leaf" + std::to_string(s);
    leaves.push_back(topology.addVertex({name, VertexKind::Switch, 0, spec.where}));
  }
  std::vector<Rational> downlink(leaves.size(), 0);
  for (size_t n = 0; n < nics.size(); ++n) {
    const auto leaf = static_cast<size_t>(leafOf(n));
    topology.addLink({nics[n], leaves[leaf], net.bandwidthGBps, net.alphaUs, net.linkClass, spec.where});
    topology.addLink({leaves[leaf], nics[n], net.bandwidthGBps, net.alphaUs, net.linkClass, spec.where});
    downlink[leaf] += net.bandwidthGBps;
  }
  if (!net.spineOversubscription || leaves.size() < 2) return;
  const int32_t spine = topology.addVertex({"spine", VertexKind::Switch, 0, spec.where});
  for (size_t s = 0; s < leaves.size(); ++s) {
    const Rational uplink = downlink[s] / *net.spineOversubscription;
    topology.addLink({leaves[s], spine, uplink, net.spineAlphaUs, net.linkClass, spec.where});
    topology.addLink({spine, leaves[s], uplink, net.spineAlphaUs, net.linkClass, spec.where});
  }
}

std::optional<std::vector<int32_t>> boxRotation(const Topology& topology) {
  std::map<std::string_view, std::map<int32_t, int32_t>> copies;  // X -> k -> vertex of "b<k>.X"
  int32_t boxes = 0;
  for (size_t v = 0; v < topology.vertices().size(); ++v) {
    const std::string_view name = topology.vertices()[v].name;
    const size_t dot = name.find('.');
    if (name.size() < 3 || name[0] != 'b' || dot == std::string_view::npos || dot < 2) continue;
    int32_t k = -1;
    const auto [end, error] = std::from_chars(name.data() + 1, name.data() + dot, k);
    if (error != std::errc() || end != name.data() + dot || k < 0) continue;
    copies[name.substr(dot + 1)][k] = static_cast<int32_t>(v);
    boxes = std::max(boxes, k + 1);
  }
  if (boxes < 2) return std::nullopt;
  std::vector<int32_t> image(topology.vertices().size());
  for (size_t v = 0; v < image.size(); ++v) image[v] = static_cast<int32_t>(v);
  for (const auto& [rest, byBox] : copies) {
    if (static_cast<int32_t>(byBox.size()) != boxes) return std::nullopt;
    for (const auto& [k, v] : byBox) image[static_cast<size_t>(v)] = byBox.at((k + 1) % boxes);
  }
  return image;
}

}  // namespace ccforge::topo
