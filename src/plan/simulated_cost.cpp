#include "plan/simulated_cost.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <optional>
#include <stdexcept>

#include "codegen/compile_error.hpp"
#include "codegen/compiler.hpp"
#include "base/input_error.hpp"
#include "ir/names.hpp"
#include "base/output_file.hpp"
#include "ir/reader.hpp"
#include "ir/writer.hpp"
#include "library.hpp"
#include "plan/workload.hpp"
#include "semantics/protocol.hpp"
#include "sim/simulate.hpp"
#include "topology/families.hpp"

namespace ccforge::plan {

std::vector<uint64_t> defaultSimulatedSizes(uint64_t maxBytes) {
  std::vector<uint64_t> s;
  uint64_t b = 1024;
  s.push_back(b);
  while (b < maxBytes && b < kMaxTensorBytes) {
    b *= 4;
    s.push_back(b);
  }
  return s;
}

namespace {

AlgorithmCurve tabulate(const ir::Algorithm& a, const std::string& name, const std::string& file,
                        const topo::Topology& t, const SimulatedCostOptions& o, std::vector<std::string>* notes) {
  sim::SimulationOptions so;
  so.sizes = o.sizes.empty() ? defaultSimulatedSizes(o.maxBytes) : o.sizes;
  std::sort(so.sizes.begin(), so.sizes.end());
  so.sizes.erase(std::unique(so.sizes.begin(), so.sizes.end()), so.sizes.end());
  so.arch = o.arch;
  sim::SimulationReport r = sim::simulate(a, file.empty() ? name : file, t, so);
  AlgorithmCurve c;
  c.name = name;
  c.irFile = file;
  bool raised = false;
  for (const sim::SizeResult& s : r.results) {
    double v = s.timeUs;
    if (!c.table.empty() && v < c.table.back().second) {
      v = c.table.back().second;
      raised = true;
    }
    c.table.emplace_back(s.bytes, v);
  }
  if (raised && notes != nullptr)
    notes->push_back(name + ": simulated time drops with size somewhere; the table keeps the larger time");
  return c;
}

}  // namespace

CommCost simulatedCost(const topo::Topology& t, const SimulatedCostOptions& o, std::vector<std::string>* notes) {
  const int32_t n = static_cast<int32_t>(t.gpus().size());
  if (n < 2) throw std::invalid_argument("the topology needs at least 2 GPUs to AllReduce");
  std::vector<std::pair<std::string, std::vector<std::string>>> candidates{
      {"ring-allreduce", {"ranks=" + std::to_string(n)}}};
  if (!o.ringOnly) {
    candidates.push_back({"allpairs-allreduce", {"ranks=" + std::to_string(n)}});
    if ((n & (n - 1)) == 0)
      candidates.push_back({"recursive-halving-doubling-allreduce", {"ranks=" + std::to_string(n)}});
    int32_t boxes = t.boxCount();
    if (boxes > 1 && n % boxes == 0)
      candidates.push_back(
          {"hierarchical-allreduce", {"nodes=" + std::to_string(boxes), "gpus=" + std::to_string(n / boxes)}});
  }
  std::vector<AlgorithmCurve> curves;
  for (const auto& [baseName, baseSettings] : candidates)
    for (ir::Protocol protocol : o.protocols) {
      const std::string name = baseName + "/" + std::string(ir::protocolName(protocol));
      // A ring over many ranks has more steps per thread block than the runtime allows on one
      // channel: spread it over 2, 4, ... channels until it compiles.
      std::optional<codegen::Compiled> compiled;
      std::string why;
      for (int32_t channels = 1; channels <= ccforge::semantics::kMaxChannels && !compiled; channels *= 2) {
        std::vector<std::string> settings = baseSettings;
        if (channels > 1) {
          if (baseName != "ring-allreduce") break;
          settings.push_back("channels=" + std::to_string(channels));
        }
        try {
          algorithms::Instance inst = algorithms::instantiate(baseName, settings, protocol);
          compiled.emplace(codegen::compile(inst.program));
        } catch (const std::invalid_argument& e) {
          why = e.what();
          break;
        } catch (const codegen::CompileError& e) {
          why = e.what();
        }
      }
      if (!compiled) {
        if (notes != nullptr) notes->push_back(name + " left out: " + why);
        continue;
      }
      std::string file;
      if (!o.irDir.empty()) {
        std::filesystem::create_directories(o.irDir);
        file = (std::filesystem::path(o.irDir) / (baseName + "-" + std::string(ir::protocolName(protocol)) + ".xml"))
                   .string();
        base::writeOutputFile(file, ir::toXml(compiled->algorithm));
      }
      try {
        curves.push_back(tabulate(compiled->algorithm, name, file, t, o, notes));
      } catch (const std::exception& e) {
        if (notes != nullptr) notes->push_back(name + " left out: the simulator says: " + e.what());
      }
    }
  for (const std::string& path : o.irFiles) {
    ir::Algorithm a = ir::readAlgorithmFile(path).algorithm;
    if (a.coll != ir::CollectiveKind::AllReduce)
      throw base::InputError(path, a.where, "not an AllReduce (coll=\"" + a.collName + "\")");
    if (static_cast<int32_t>(a.gpus.size()) != n)
      throw base::InputError(
          path, a.where,
          "has " + std::to_string(a.gpus.size()) + " ranks; the topology has " + std::to_string(n) + " GPUs");
    std::string name = std::filesystem::path(path).filename().string();
    curves.push_back(tabulate(a, name, path, t, o, notes));
  }
  if (curves.empty()) throw std::invalid_argument("no AllReduce algorithm could be simulated on " + t.name);
  return CommCost(std::move(curves));
}

topo::Topology presetTopology(const NetworkPreset& preset, int32_t workers) {
  if (workers < 2 || workers > topo::kMaxFamilyGpus) throw std::invalid_argument("workers must be 2 .. 4096");
  topo::Topology t;
  t.name = preset.name + "-switch-" + std::to_string(workers);
  t.description = "generated: " + std::to_string(workers) + " workers on one switch, links calibrated from the " +
                  preset.name + " preset";
  topo::FamilySpec spec;
  spec.family = topo::Family::Switch;
  spec.shape = {workers};
  // A link's per-byte time b = beta * 8/14 µs; bandwidth in GB/s = 1e-3 / b, kept as an exact
  // rational with 1/1000 GB/s resolution. Per-step latency a = alpha / 14, split over the two
  // links of a switch path.
  const double b = preset.usPerByte * 8.0 / 14.0;
  const int64_t mbps = std::max<int64_t>(1, std::llround(1e-3 / b * 1000.0));
  spec.bandwidthGBps = topo::Rational(mbps) / 1000;
  spec.alphaUs = preset.alphaUs / 14.0 / 2.0;
  spec.linkClass = topo::LinkClass::Network;
  topo::addFamily(t, spec);
  return t;
}

}  // namespace ccforge::plan
