// Builds a topology spec from imported boxes (see machine_import.hpp and docs/topologies.md,
// "Importing a machine"). Every assumption is recorded as a note.
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <map>
#include <numeric>
#include <set>
#include <stdexcept>

#include "base/union_find.hpp"
#include "base/json_document.hpp"
#include "base/limits.hpp"
#include "topology/machine_import.hpp"

namespace ccforge::topo {
namespace {

using nlohmann::ordered_json;

// Bandwidth values: integers as JSON numbers, anything else as an exact "p/q" string.
ordered_json bandwidthJson(const Rational& r) {
  if (denominator(r) == 1) return ordered_json::parse(toString(r));
  return toString(r);
}

std::string gbpsText(const Rational& r) {
  std::string s = toFixed(r, 4);
  while (s.back() == '0') s.pop_back();
  if (s.back() == '.') s.pop_back();
  return s + " GB/s";
}

struct PlannedLink {
  std::string from, to;
  Rational gbps;
  std::string linkClass;
  double alphaUs = 0;
};

// One box's vertices and links, names without the box prefix.
struct BoxPlan {
  std::vector<std::pair<std::string, std::string>> vertices;  // name, kind
  std::vector<PlannedLink> links;
  std::vector<std::string> nics;  // NIC vertex names in rail order
  std::vector<Rational> nicGBps;
};

class SpecBuilder {
 public:
  SpecBuilder(const std::vector<ImportedBox>& boxes, const ImportOptions& options) : boxes_(boxes), options_(options) {}

  // Before a single vertex is built: a million boxes would take gigabytes before the spec
  // reader could refuse them.
  static void checkSize(const std::vector<BoxPlan>& plans, size_t count) {
    if (count > static_cast<size_t>(base::limits::kMaxBoxes))
      throw base::LimitExceeded(std::to_string(count) + " boxes: a spec has at most " +
                                std::to_string(base::limits::kMaxBoxes) + " (docs/limits.md)");
    size_t gpus = 0;
    for (size_t k = 0; k < count; ++k)
      for (const auto& vertex : plans[plans.size() > 1 ? k : 0].vertices) gpus += vertex.second == "gpu" ? 1 : 0;
    if (gpus > static_cast<size_t>(base::limits::kMaxTopologyGpus))
      throw base::LimitExceeded(std::to_string(count) + " boxes make " + std::to_string(gpus) +
                                " GPUs: a spec has at most " + std::to_string(base::limits::kMaxTopologyGpus) +
                                " (docs/limits.md)");
  }

  ImportResult build() {
    if (boxes_.empty()) throw std::invalid_argument("nothing to import");
    if (options_.boxes < 1) throw std::invalid_argument("--boxes must be at least 1");
    if (options_.boxes > 1 && boxes_.size() > 1)
      throw std::invalid_argument("--boxes copies one input; with several inputs each file is one box");
    for (const ImportedBox& b : boxes_) notes_.insert(notes_.end(), b.notes.begin(), b.notes.end());
    std::vector<BoxPlan> plans;
    for (const ImportedBox& b : boxes_) plans.push_back(planBox(b));
    const size_t count = boxes_.size() > 1 ? boxes_.size() : static_cast<size_t>(options_.boxes);
    checkSize(plans, count);
    const bool multi = count > 1;

    ordered_json vertices = ordered_json::array();
    ordered_json links = ordered_json::array();
    auto prefix = [&](size_t k, const std::string& n) { return multi ? "b" + std::to_string(k) + "." + n : n; };
    for (size_t k = 0; k < count; ++k) {
      const BoxPlan& p = plans[boxes_.size() > 1 ? k : 0];
      for (const auto& [name, kind] : p.vertices) {
        ordered_json v = {{"name", prefix(k, name)}, {"kind", kind}};
        if (multi) v["box"] = k;
        vertices.push_back(v);
      }
      for (const PlannedLink& l : p.links) links.push_back(linkJson(prefix(k, l.from), prefix(k, l.to), l));
    }
    if (multi) addNetwork(plans, count, vertices, links, prefix);

    const int32_t sm = machineSm();
    const bool nvls = sm >= 90 && nvswitch_ && options_.nvls;
    if (sm >= 90 && nvswitch_)
      notes_.push_back(
          nvls ? "nvls: NVSwitch and sm " + std::to_string(sm) +
                     ": NVLink SHARP assumed available, as NCCL uses it by default (a VM without NVLink multicast "
                     "or NCCL_NVLS_ENABLE=0 runs without it; --no-nvls)"
               : "nvls: off (--no-nvls)");
    if (multi)
      notes_.push_back(
          "pxn: connections between boxes leave through the NIC of the GPU with the receiver's index in the "
          "sender's box, as NCCL's PXN does by default");

    ordered_json spec;
    spec["name"] = options_.name;
    spec["description"] = description(count);
    spec["notes"] = notes_;
    if (sm > 0) spec["sm"] = sm;
    if (nvls) spec["nvls"] = true;
    if (multi) spec["pxn"] = true;
    spec["unit_GBps"] = bandwidthJson(unit_);
    spec["vertices"] = vertices;
    spec["links"] = links;
    return {base::jsonDocument(spec), notes_};
  }

 private:
  ordered_json linkJson(const std::string& from, const std::string& to, const PlannedLink& l) const {
    ordered_json j = {{"from", from}, {"to", to}, {"bw", bandwidthJson(l.gbps / unit_)}, {"link_class", l.linkClass}};
    if (l.alphaUs > 0) j["alpha_us"] = l.alphaUs;
    return j;
  }

  std::string description(size_t count) const {
    std::string files;
    for (const ImportedBox& b : boxes_) files += (files.empty() ? "" : ", ") + b.source;
    std::string d = "Imported by ccforge topo import from " + files + ": " + std::to_string(count) + " box" +
                    (count == 1 ? "" : "es") + " of " + std::to_string(boxes_[0].gpus.size()) + " GPUs";
    if (count > 1)
      d += std::string(", NICs joined by ") + (options_.fabric == Fabric::Rail   ? "one switch per rail"
                                               : options_.fabric == Fabric::Clos ? "leaf switches of boxes"
                                                                                 : "one switch");
    if (count > 1 && options_.fabric != Fabric::Switch && options_.spineOversubscription > 0) d += " and a spine";
    return d + ". See notes for what was assumed.";
  }

  int32_t smOf(const ImportedGpu& g) const { return options_.sm ? *options_.sm : g.sm; }

  // The machine's compute capability: --sm, else the first GPU's that states one (noted when the
  // GPUs differ); 0 when none does.
  int32_t machineSm() {
    if (options_.sm) return *options_.sm;
    int32_t sm = 0;
    for (const ImportedBox& b : boxes_)
      for (const ImportedGpu& g : b.gpus) {
        if (g.sm <= 0) continue;
        if (sm == 0)
          sm = g.sm;
        else if (g.sm != sm) {
          notes_.push_back(b.source + ": GPUs of sm " + std::to_string(sm) + " and " + std::to_string(g.sm) +
                           ": the spec says sm " + std::to_string(sm));
          return sm;
        }
      }
    return sm;
  }

  Rational perLink(const ImportedBox& b, const ImportedGpu& g) {
    if (options_.nvlinkGBps) return *options_.nvlinkGBps;
    int32_t sm = smOf(g);
    if (sm < 0)
      throw std::invalid_argument(b.source +
                                  ": no compute capability for the NVLink bandwidth (nvidia-smi does not print it): "
                                  "give --sm (70, 80, 90, 100) or --nvlink-gbps");
    auto gen = nvlinkGeneration(sm);
    if (!gen)
      throw std::invalid_argument(
          b.source + ": sm " + std::to_string(sm) +
          " has no NVLink generation in ccforge's table; give --nvlink-gbps (per link, per direction)");
    std::string note = "sm " + std::to_string(sm) + " (" + std::string(gen->name) + "): " + gbpsText(gen->perLinkGBps) +
                       " per NVLink per direction, " + std::to_string(gen->linksPerGpu) + " links per GPU";
    if (std::find(notes_.begin(), notes_.end(), note) == notes_.end()) notes_.push_back(note);
    return gen->perLinkGBps;
  }

  // GPUs in rank order: the dump's rank attribute when every GPU has a distinct one, else dev.
  std::vector<int32_t> rankOrder(const ImportedBox& b) {
    std::vector<int32_t> order(b.gpus.size());
    std::iota(order.begin(), order.end(), 0);
    std::set<int32_t> ranks;
    for (const ImportedGpu& g : b.gpus) ranks.insert(g.rank);
    bool byRank = ranks.size() == b.gpus.size() && *ranks.begin() >= 0;
    std::stable_sort(order.begin(), order.end(), [&](int32_t x, int32_t y) {
      const ImportedGpu &a = b.gpus[static_cast<size_t>(x)], &c = b.gpus[static_cast<size_t>(y)];
      return byRank ? a.rank < c.rank : a.dev < c.dev;
    });
    if (!b.pairCountsFromMatrix)
      notes_.push_back(b.source + ": ranks follow the dump's " + (byRank ? "rank" : "dev") +
                       " attribute (gpu<r> is rank r)");
    return order;
  }

  BoxPlan planBox(const ImportedBox& b) {
    BoxPlan p;
    std::vector<int32_t> order = rankOrder(b);
    std::vector<std::string> name(b.gpus.size());
    for (size_t r = 0; r < order.size(); ++r) {
      name[static_cast<size_t>(order[r])] = "gpu" + std::to_string(r);
      p.vertices.emplace_back("gpu" + std::to_string(r), "gpu");
    }
    base::UnionFind joined(b.gpus.size() + 1);
    const int32_t switchNode = static_cast<int32_t>(b.gpus.size());
    bool anyNvlink = false;

    // GPU-GPU NVLinks: one undirected link per pair; per-GPU switch totals.
    std::map<std::pair<int32_t, int32_t>, std::pair<int32_t, int32_t>>
        pairCounts;  // (lo, hi) -> (count from lo, from hi)
    std::vector<int32_t> switchCount(b.gpus.size(), 0);
    std::set<std::string> switchTargets;
    std::vector<std::map<std::string, int32_t>> perSwitch(b.gpus.size());  // GPU -> switch target -> count
    for (const ImportedNvlink& l : b.nvlinks) {
      if (l.count <= 0) continue;
      if (l.kind == NvlinkTarget::Cpu) {
        notes_.push_back(b.source + ":" + std::to_string(l.where.line) +
                         ": NVLink to a CPU left out (not a GPU-GPU path)");
        continue;
      }
      if (l.kind == NvlinkTarget::Switch) {
        switchCount[static_cast<size_t>(l.gpu)] += l.count;
        switchTargets.insert(l.target);
        perSwitch[static_cast<size_t>(l.gpu)][l.target] += l.count;
        continue;
      }
      if (l.targetGpu < 0 || l.targetGpu == l.gpu) continue;
      auto key = std::minmax(l.gpu, l.targetGpu);
      auto& counts = pairCounts[{key.first, key.second}];
      (l.gpu == key.first ? counts.first : counts.second) =
          std::max(l.gpu == key.first ? counts.first : counts.second, l.count);
    }

    // nvidia-smi prints NV<n> per pair even behind NVSwitches: more links than a GPU has means a switch.
    if (b.pairCountsFromMatrix && !pairCounts.empty()) {
      std::vector<int32_t> total(b.gpus.size(), 0), widest(b.gpus.size(), 0);
      for (const auto& [key, counts] : pairCounts)
        for (int32_t g : {key.first, key.second}) {
          int32_t c = std::max(counts.first, counts.second);
          total[static_cast<size_t>(g)] += c;
          widest[static_cast<size_t>(g)] = std::max(widest[static_cast<size_t>(g)], c);
        }
      int32_t links = 0;
      if (options_.sm)
        if (auto gen = nvlinkGeneration(*options_.sm)) links = gen->linksPerGpu;
      if (!options_.sm && !options_.nvlinkGBps)
        throw std::invalid_argument(b.source +
                                    ": nvidia-smi prints no compute capability: give --sm (70, 80, 90, 100) to read "
                                    "NV<n> as NVLinks of that generation");
      if (!options_.sm)
        notes_.push_back(b.source +
                         ": without --sm, NV<n> cells are read as direct NVLinks of --nvlink-gbps each (an NVSwitch "
                         "box would look fully connected)");
      bool overSubscribed = false;
      for (size_t g = 0; g < total.size(); ++g) overSubscribed = overSubscribed || (links > 0 && total[g] > links);
      if (overSubscribed) {
        for (size_t g = 0; g < total.size(); ++g) switchCount[g] = widest[g];
        switchTargets.insert("(matrix)");
        pairCounts.clear();
        notes_.push_back(b.source + ": NV<n> on every pair adds up to more than " + std::to_string(links) +
                         " links per GPU: read as an NVSwitch, each GPU with its widest NV<n> to it");
      }
    }

    for (const auto& [key, counts] : pairCounts) {
      int32_t c = counts.first > 0 && counts.second > 0 ? std::min(counts.first, counts.second)
                                                        : std::max(counts.first, counts.second);
      if (counts.first > 0 && counts.second > 0 && counts.first != counts.second)
        notes_.push_back(b.source + ": " + name[static_cast<size_t>(key.first)] + " lists " +
                         std::to_string(counts.first) + " NVLinks to " + name[static_cast<size_t>(key.second)] +
                         ", which lists " + std::to_string(counts.second) + "; used " + std::to_string(c));
      const ImportedGpu& g = b.gpus[static_cast<size_t>(key.first)];
      Rational bw = perLink(b, g) * c;
      p.links.push_back({name[static_cast<size_t>(key.first)], name[static_cast<size_t>(key.second)], bw, "nvlink", 0});
      joined.unite(key.first, key.second);
      anyNvlink = true;
    }
    if (!switchTargets.empty()) {
      nvswitch_ = true;
      p.vertices.emplace_back("nvswitch", "switch");
      for (size_t r = 0; r < order.size(); ++r) {
        size_t g = static_cast<size_t>(order[r]);
        if (switchCount[g] == 0) {
          notes_.push_back(b.source + ": " + name[g] + " has no NVLink to the NVSwitch");
          continue;
        }
        p.links.push_back({name[g], "nvswitch", perLink(b, b.gpus[g]) * switchCount[g], "nvlink", 0});
        joined.unite(static_cast<int32_t>(g), switchNode);
        anyNvlink = true;
      }
      if (switchTargets.count("fffffff:ff:ff.0"))
        notes_.push_back(b.source +
                         ": NVLink targets fffffff:ff:ff.0 (NVSwitches NCCL could not see, e.g. in a VM): one NVSwitch "
                         "vertex assumed");
      else if (!switchTargets.count("(matrix)"))
        notes_.push_back(
            b.source + ": " + std::to_string(switchTargets.size()) +
            " NVSwitch targets merged into one vertex 'nvswitch' (each GPU's link = the sum of its NVLink counts)");
      // One vertex carries the same flows as the separate switches when every GPU has the same
      // count to each switch; otherwise it can overstate what the switches carry.
      bool even = true;
      for (size_t g = 1; g < perSwitch.size(); ++g) even = even && perSwitch[g] == perSwitch[0];
      if (!even)
        notes_.push_back(b.source +
                         ": GPUs have different NVLink counts to the individual NVSwitches: one vertex may overstate "
                         "what the switches carry");
    }
    if (anyNvlink && unit_ == 1 && !unitSet_) {
      unit_ = perLink(b, b.gpus[static_cast<size_t>(order[0])]);
      unitSet_ = true;
    }

    // PCIe, where NVLink does not connect every GPU.
    bool connected = true;
    for (size_t g = 1; g < b.gpus.size(); ++g)
      connected = connected && joined.find(0) == joined.find(static_cast<int32_t>(g));
    if (!connected)
      addPcie(b, order, name, p);
    else if (b.gpus.size() == 1)
      notes_.push_back(b.source + ": one GPU: no GPU-GPU links in the box");
    else
      notes_.push_back(b.source + ": NVLink connects every GPU; PCIe paths left out (as in the catalog)");

    addNics(b, name, p);
    return p;
  }

  void addPcie(const ImportedBox& b, const std::vector<int32_t>& order, const std::vector<std::string>& name,
               BoxPlan& p) {
    const Rational assumed = 16;
    std::set<int32_t> cpus;
    for (const ImportedGpu& g : b.gpus) cpus.insert(std::max(g.cpu, 0));
    for (int32_t c : cpus) p.vertices.emplace_back("cpu" + std::to_string(c), "switch");
    Rational slowest = -1;
    bool assumedAny = false;
    for (int32_t gi : order) {
      const ImportedGpu& g = b.gpus[static_cast<size_t>(gi)];
      Rational bw = g.pcieGBps > 0 ? g.pcieGBps : assumed;
      assumedAny = assumedAny || g.pcieGBps <= 0;
      if (slowest < 0 || bw < slowest) slowest = bw;
      p.links.push_back({name[static_cast<size_t>(gi)], "cpu" + std::to_string(std::max(g.cpu, 0)), bw, "pcie", 0});
    }
    notes_.push_back(b.source +
                     ": NVLink does not connect every GPU: GPUs reach each other over PCIe through their CPU vertex "
                     "(bandwidth = link_speed GT/s x link_width / 8, encoding overhead ignored)");
    if (assumedAny) notes_.push_back(b.source + ": a GPU without PCIe speed or width: assumed " + gbpsText(assumed));
    for (auto a = cpus.begin(); a != cpus.end(); ++a)
      for (auto c = std::next(a); c != cpus.end(); ++c)
        p.links.push_back({"cpu" + std::to_string(*a), "cpu" + std::to_string(*c), slowest, "pcie", 0});
    if (cpus.size() > 1)
      notes_.push_back(b.source + ": the dump gives no CPU-CPU (QPI/UPI/xGMI) bandwidth: assumed " + gbpsText(slowest) +
                       ", the slowest GPU's PCIe link");
  }

  void addNics(const ImportedBox& b, const std::vector<std::string>& name, BoxPlan& p) {
    withNic_.clear();
    std::vector<const ImportedNic*> nics;
    for (const ImportedNic& n : b.nics) nics.push_back(&n);
    std::stable_sort(nics.begin(), nics.end(),
                     [](const ImportedNic* x, const ImportedNic* y) { return x->dev < y->dev; });
    for (const ImportedNic* n : nics) {
      if (n->speedMbps <= 0) {
        notes_.push_back(b.source + ": NIC " + n->name + " has no speed; left out");
        continue;
      }
      // The closest GPUs: the one the matrix marks PIX, or those under the NIC's PCIe switch,
      // else those of its CPU. A NIC is linked to one of them only (the first without a NIC yet):
      // linked to several it would relay GPU-to-GPU traffic, which NCCL never routes through a NIC.
      std::vector<size_t> candidates;
      bool sameSwitch = true;
      if (b.pairCountsFromMatrix) {
        for (size_t g = 0; g < b.gpus.size(); ++g)
          if (b.gpus[g].busId == n->parent) candidates.push_back(g);
      } else {
        for (size_t g = 0; g < b.gpus.size(); ++g)
          if (b.gpus[g].cpu == n->cpu && b.gpus[g].parent == n->parent) candidates.push_back(g);
        if (candidates.empty()) {
          sameSwitch = false;
          for (size_t g = 0; g < b.gpus.size(); ++g)
            if (b.gpus[g].cpu == n->cpu) candidates.push_back(g);
        }
      }
      if (candidates.empty()) {
        notes_.push_back(b.source + ": NIC " + n->name + " is near no GPU; left out");
        continue;
      }
      std::sort(candidates.begin(), candidates.end(), [&](size_t x, size_t y) {
        return name[x].size() != name[y].size() ? name[x].size() < name[y].size() : name[x] < name[y];
      });
      size_t chosen = candidates.front();
      for (size_t g : candidates)
        if (!withNic_.count(name[g])) {
          chosen = g;
          break;
        }
      withNic_.insert(name[chosen]);
      if (!sameSwitch)
        notes_.push_back(b.source + ": NIC " + n->name + " shares no PCIe switch with a GPU; linked to " +
                         name[chosen] + " of its CPU");
      std::vector<size_t> attached{chosen};
      std::string v = "nic" + std::to_string(p.nics.size());
      Rational gbps = Rational(n->speedMbps) / 8000;
      p.vertices.emplace_back(v, "nic");
      std::string gpus;
      for (size_t g : attached) {
        p.links.push_back({name[g], v, gbps, "pcie", 0});
        gpus += (gpus.empty() ? "" : " ") + name[g];
      }
      notes_.push_back(b.source + ": " + v + " = " + n->name + " (rail " + std::to_string(p.nics.size()) + "), " +
                       std::to_string(n->speedMbps) + " Mb/s = " + gbpsText(gbps) + ", linked to " + gpus);
      p.nics.push_back(v);
      p.nicGBps.push_back(gbps);
    }
  }

  template <typename Prefix>
  void addNetwork(const std::vector<BoxPlan>& plans, size_t count, ordered_json& vertices, ordered_json& links,
                  Prefix prefix) {
    for (size_t i = 0; i < plans.size(); ++i)
      if (plans[i].nics.empty())
        throw std::invalid_argument(boxes_[i].source +
                                    ": no NIC with a speed, so the boxes cannot be joined (nvidia-smi output has no "
                                    "NIC speeds: use an NCCL dump)");
    auto planOf = [&](size_t k) -> const BoxPlan& { return plans[plans.size() > 1 ? k : 0]; };
    if (options_.spineOversubscription < 0) throw std::invalid_argument("--spine-oversubscription must be >= 0");
    std::vector<std::string> leaves;
    std::vector<Rational> downlink;
    auto onLeaf = [&](size_t k, size_t j, const std::string& leaf) {
      links.push_back(linkJson(prefix(k, planOf(k).nics[j]), leaf,
                               {"", "", planOf(k).nicGBps[j], "network", options_.networkAlphaUs}));
      size_t at = static_cast<size_t>(std::find(leaves.begin(), leaves.end(), leaf) - leaves.begin());
      if (at == leaves.size()) {
        leaves.push_back(leaf);
        downlink.push_back(0);
      }
      downlink[at] += planOf(k).nicGBps[j];
    };
    if (options_.fabric == Fabric::Rail) {
      size_t rails = planOf(0).nics.size();
      for (size_t k = 1; k < count; ++k)
        if (planOf(k).nics.size() != rails)
          throw std::invalid_argument("--fabric rail needs the same number of NICs in every box (" + boxes_[0].source +
                                      ": " + std::to_string(rails) + ", " + boxes_[k].source + ": " +
                                      std::to_string(planOf(k).nics.size()) + ")");
      if (options_.railSwitches < 0) throw std::invalid_argument("--rail-switches must be at least 1");
      const size_t switches =
          options_.railSwitches > 0 ? std::min(rails, static_cast<size_t>(options_.railSwitches)) : rails;
      for (size_t j = 0; j < switches; ++j)
        vertices.push_back({{"name", "rail" + std::to_string(j)}, {"kind", "switch"}});
      for (size_t k = 0; k < count; ++k)
        for (size_t j = 0; j < rails; ++j) onLeaf(k, j, "rail" + std::to_string(j % switches));
      notes_.push_back(
          switches == rails
              ? "fabric rail: NIC j of every box on switch rail<j>, each NIC-switch link at the NIC's speed"
              : "fabric rail: NIC j of every box on switch rail<j mod " + std::to_string(switches) +
                    ">, each NIC-switch link at the NIC's speed");
    } else if (options_.fabric == Fabric::Clos) {
      if (options_.boxesPerLeaf < 1) throw std::invalid_argument("--boxes-per-leaf must be at least 1");
      if (options_.spineOversubscription == 0 && count > static_cast<size_t>(options_.boxesPerLeaf))
        throw std::invalid_argument("--fabric clos joins its leaves by a spine: give --spine-oversubscription > 0");
      const size_t perLeaf = static_cast<size_t>(options_.boxesPerLeaf);
      for (size_t l = 0; l * perLeaf < count; ++l)
        vertices.push_back({{"name", "leaf" + std::to_string(l)}, {"kind", "switch"}});
      for (size_t k = 0; k < count; ++k)
        for (size_t j = 0; j < planOf(k).nics.size(); ++j) onLeaf(k, j, "leaf" + std::to_string(k / perLeaf));
      notes_.push_back("fabric clos: every NIC of boxes " + std::to_string(perLeaf) + "k.." + std::to_string(perLeaf) +
                       "k+" + std::to_string(perLeaf - 1) +
                       " on leaf switch leaf<k> (--boxes-per-leaf), each NIC-leaf link at the NIC's speed");
    } else {
      vertices.push_back({{"name", "net"}, {"kind", "switch"}});
      for (size_t k = 0; k < count; ++k)
        for (size_t j = 0; j < planOf(k).nics.size(); ++j) onLeaf(k, j, "net");
      notes_.push_back("fabric switch: every NIC on one non-blocking switch 'net', each link at the NIC's speed");
    }
    if (options_.fabric != Fabric::Switch && options_.spineOversubscription > 0 && leaves.size() > 1) {
      vertices.push_back({{"name", "spine"}, {"kind", "switch"}});
      for (size_t l = 0; l < leaves.size(); ++l)
        links.push_back(
            linkJson(leaves[l], "spine", {"", "", downlink[l] / options_.spineOversubscription, "network", 0}));
      notes_.push_back(
          "spine: the leaves joined by one aggregate switch 'spine' (perfect ECMP over the spine switches), each "
          "leaf's uplink = its NIC links' bandwidth / " +
          toString(options_.spineOversubscription) + " (--spine-oversubscription), alpha 0");
    }
    char alpha[32];
    std::snprintf(alpha, sizeof alpha, "%g", options_.networkAlphaUs);
    notes_.push_back(std::string("network alpha ") + alpha +
                     " us per NIC-switch link (a dump has no latency; --net-alpha-us sets it); other links alpha 0");
  }

  const std::vector<ImportedBox>& boxes_;
  const ImportOptions& options_;
  std::vector<std::string> notes_;
  Rational unit_ = 1;
  bool unitSet_ = false;
  bool nvswitch_ = false;          // a box has an NVSwitch
  std::set<std::string> withNic_;  // GPUs of the box being planned that have a NIC
};

}  // namespace

// NVIDIA's figures are bidirectional per GPU; per link per direction is total / links / 2
// (docs/topologies.md cites the sources).
std::optional<NvlinkGeneration> nvlinkGeneration(int32_t sm) {
  switch (sm) {
    case 60: return NvlinkGeneration{20, 4, "P100, NVLink1"};
    case 70: return NvlinkGeneration{25, 6, "V100, NVLink2"};
    case 80: return NvlinkGeneration{25, 12, "A100, NVLink3"};
    case 86: return NvlinkGeneration{Rational(225, 16), 4, "GA102 (A40/A6000/RTX 3090) bridge, NVLink3"};
    case 90: return NvlinkGeneration{25, 18, "H100/H200, NVLink4"};
    case 100: return NvlinkGeneration{50, 18, "B200, NVLink5"};
    default: return std::nullopt;
  }
}

ImportResult buildImportedSpec(const std::vector<ImportedBox>& boxes, const ImportOptions& options) {
  return SpecBuilder(boxes, options).build();
}

}  // namespace ccforge::topo
