#include "topology/summary_report.hpp"

#include <nlohmann/json.hpp>

#include <sstream>
#include <string_view>

#include "base/json_document.hpp"
#include "topology/catalog.hpp"
#include "topology/spec_reader.hpp"

namespace ccforge::topo {
namespace {

using nlohmann::ordered_json;

std::string gbps(const Rational& r) {
  std::string text = toFixed(r, 2);
  while (text.back() == '0') text.pop_back();
  if (text.back() == '.') text.pop_back();
  return text;
}

std::string rangeText(const BandwidthRange& r) {
  return r.min == r.max ? gbps(r.min) + " GB/s on every GPU" : gbps(r.min) + " to " + gbps(r.max) + " GB/s";
}

std::string groupText(const AutomorphismGroup& g) { return (g.complete ? "" : "at least ") + g.order.str(); }

std::string count(int64_t n, std::string_view singular, std::string_view plural) {
  std::string text = std::to_string(n);
  text += ' ';
  text += n == 1 ? singular : plural;
  return text;
}

std::string gpuName(const Topology& t, int32_t rank) {
  return t.vertices()[static_cast<size_t>(t.gpus()[static_cast<size_t>(rank)])].name;
}

ordered_json groupJson(const AutomorphismGroup& g) {
  return {{"order", g.order.str()}, {"complete", g.complete}, {"generators", g.generators.size()}};
}

}  // namespace

std::string summaryText(const Topology& t, const TopologySummary& s) {
  std::ostringstream out;
  out << "topology " << t.name << " (" << t.sourceFile << ")\n";
  if (!t.description.empty()) out << "  " << t.description << "\n";
  out << "vertices: " << count(s.gpus, "GPU", "GPUs") << ", " << count(s.switches, "switch", "switches") << ", "
      << count(s.nics, "NIC", "NICs") << " in " << count(s.boxes, "box", "boxes") << "\n";
  out << "links: " << s.links << " directed, bandwidth unit " << gbps(t.unitGBps) << " GB/s\n";
  out << "GPU egress: " << rangeText(s.gpuEgress) << "\nGPU ingress: " << rangeText(s.gpuIngress) << "\n";
  if (s.diameter)
    out << "diameter: " << count(*s.diameter, "step", "steps") << " (GPU-to-GPU transfers; switches"
        << (t.gpuRelay ? ", NICs and the GPUs the fabric relays through" : " and NICs") << " are not steps)\n";
  else
    out << "diameter: none: " << gpuName(t, s.unreachable->first) << " cannot reach "
        << gpuName(t, s.unreachable->second) << "\n";
  out << "automorphisms: " << groupText(s.weighted) << " keeping bandwidth, alpha and link class; "
      << groupText(s.unweighted) << " ignoring them\n";
  out << "GPU orbits: " << s.gpuOrbits.size() << " (";
  for (size_t i = 0; i < s.gpuOrbits.size(); ++i) {
    out << (i ? " | " : "");
    for (size_t k = 0; k < s.gpuOrbits[i].size(); ++k) out << (k ? " " : "") << s.gpuOrbits[i][k];
  }
  out << ")\n";
  if (!s.weighted.complete || !s.unweighted.complete)
    out << "note: the automorphism search stopped at its work limit; orders are lower bounds\n";
  return out.str();
}

std::string summaryJson(const Topology& t, const TopologySummary& s) {
  ordered_json j;
  j["name"] = t.name;
  j["source"] = t.sourceFile;
  j["description"] = t.description;
  j["unit_GBps"] = toString(t.unitGBps);
  j["gpus"] = s.gpus;
  j["switches"] = s.switches;
  j["nics"] = s.nics;
  j["boxes"] = s.boxes;
  j["links"] = s.links;
  j["gpu_egress_GBps"] = {{"min", toString(s.gpuEgress.min)}, {"max", toString(s.gpuEgress.max)}};
  j["gpu_ingress_GBps"] = {{"min", toString(s.gpuIngress.min)}, {"max", toString(s.gpuIngress.max)}};
  j["diameter_steps"] = s.diameter ? ordered_json(*s.diameter) : ordered_json(nullptr);
  j["unreachable"] = s.unreachable ? ordered_json{{"from", s.unreachable->first}, {"to", s.unreachable->second}}
                                   : ordered_json(nullptr);
  j["automorphisms"] = {{"weighted", groupJson(s.weighted)}, {"unweighted", groupJson(s.unweighted)}};
  j["gpu_orbits"] = s.gpuOrbits;
  return base::jsonDocument(j);
}

std::string catalogText() {
  std::ostringstream out;
  for (const CatalogEntry& e : catalogEntries()) {
    Topology t = readTopology(e.spec, std::string(e.name), {});
    out << e.name << ": " << t.gpus().size() << " GPUs. " << t.description << "\n";
  }
  return out.str();
}

}  // namespace ccforge::topo
