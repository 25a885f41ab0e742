#include "topology/boxes.hpp"

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
      int32_t id = topology.addVertex({prefixed(k, "nic" + std::to_string(j)), VertexKind::Nic, k * innerBoxes, spec.where});
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
  std::vector<int32_t> switches;
  int32_t count = net.kind == NetworkKind::Switch ? 1 : net.switches;
  for (int32_t s = 0; s < count; ++s) {
    std::string name = net.kind == NetworkKind::Switch ? "ib" : "ib" + std::to_string(s);
    switches.push_back(topology.addVertex({name, VertexKind::Switch, 0, spec.where}));
  }
  for (size_t n = 0; n < nics.size(); ++n) {
    auto j = static_cast<int32_t>(n) % nicsPerBox;
    int32_t sw = switches[static_cast<size_t>(net.kind == NetworkKind::Switch ? 0 : j % net.switches)];
    topology.addLink({nics[n], sw, net.bandwidthGBps, net.alphaUs, net.linkClass, spec.where});
    topology.addLink({sw, nics[n], net.bandwidthGBps, net.alphaUs, net.linkClass, spec.where});
  }
}

}  // namespace ccforge::topo
