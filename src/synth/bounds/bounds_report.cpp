#include "synth/bounds/bounds_report.hpp"

#include <nlohmann/json.hpp>

#include <iomanip>
#include <sstream>

#include "base/json_document.hpp"

namespace ccforge::synth {
namespace {

using nlohmann::ordered_json;

// The chunk a collective's rounds count in: M for broadcast and reduce, M/N otherwise.
std::string chunkOf(semantics::CollectiveType c) {
  return c == semantics::CollectiveType::Broadcast || c == semantics::CollectiveType::Reduce ? "M" : "M/N";
}

}  // namespace

std::string boundsText(const topo::Topology& t, const std::vector<CollectiveBound>& bounds) {
  std::ostringstream out;
  out << "bounds for " << t.name << ": " << t.gpus().size() << " GPUs, unit " << topo::toString(t.unitGBps)
      << " GB/s; time >= rounds * chunk / unit, chunk = M/N (M for broadcast and reduce)\n";
  out << std::left << std::setw(22) << "collective" << std::right << std::setw(6) << "steps" << std::setw(14)
      << "rounds/chunk" << std::setw(14) << "algbw <= GB/s"
      << "  exact\n";
  for (const auto& b : bounds) {
    std::string name(collectiveTypeName(b.collective));
    if (b.root >= 0) name += " (root " + std::to_string(b.root) + ")";
    if (b.inSwitch) name += " (in-switch)";
    out << std::left << std::setw(22) << name << std::right << std::setw(6) << b.stepsLowerBound << std::setw(14)
        << topo::toString(b.roundsPerChunkLowerBound) << std::setw(14) << topo::toFixed(b.algbwUpperBoundGBps, 2)
        << "  " << topo::toString(b.algbwUpperBoundGBps) << "\n";
  }
  return out.str();
}

std::string boundsJson(const topo::Topology& t, const std::vector<CollectiveBound>& bounds) {
  ordered_json j;
  j["topology"] = t.name;
  j["source"] = t.sourceFile;
  j["gpus"] = t.gpus().size();
  j["unit_GBps"] = topo::toString(t.unitGBps);
  ordered_json collectives = ordered_json::object();
  for (const auto& b : bounds) {
    ordered_json entry;
    if (b.root >= 0) entry["root"] = b.root;
    entry["steps_lower_bound"] = b.stepsLowerBound;
    entry["rounds_per_chunk_lower_bound"] = topo::toString(b.roundsPerChunkLowerBound);
    entry["algbw_upper_bound_GBps"] = topo::toDouble(b.algbwUpperBoundGBps);
    entry["algbw_upper_bound_GBps_exact"] = topo::toString(b.algbwUpperBoundGBps);
    entry["chunk"] = chunkOf(b.collective);
    entry["method"] = b.method;
    collectives[std::string(collectiveTypeName(b.collective)) + (b.inSwitch ? "_in_switch" : "")] = entry;
  }
  j["collectives"] = collectives;
  return base::jsonDocument(j);
}

}  // namespace ccforge::synth
