// `ccforge bounds TOPOLOGY [COLLECTIVE]`: exact lower bounds on steps and time, i.e. upper
// bounds on algorithm bandwidth (docs/bounds.md).
#include <nlohmann/json.hpp>

#include <iomanip>
#include <memory>
#include <sstream>

#include "ir/json_document.hpp"
#include "cli/commands.hpp"
#include "cli/topology_cli.hpp"
#include "cli/progress.hpp"
#include "topology/spec_reader.hpp"
#include "synth/bounds/bounds.hpp"

namespace ccforge::cli {
namespace {

using nlohmann::ordered_json;
using topo::Rational;

struct BoundsArguments {
  std::string topology;
  std::string collective;
  int32_t root = 0;
  std::string format = "text";
};

std::vector<CollectiveType> requested(const std::string& name) {
  if (name.empty()) return synth::boundedCollectives();
  auto type = parseCollectiveType(name);
  if (!type) throw std::invalid_argument("unknown collective '" + name + "'");
  return {*type};
}

std::string chunkOf(CollectiveType c) {
  return c == CollectiveType::Broadcast || c == CollectiveType::Reduce ? "M" : "M/N";
}

std::string text(const topo::Topology& t, const std::vector<synth::CollectiveBound>& bounds) {
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

std::string json(const topo::Topology& t, const std::vector<synth::CollectiveBound>& bounds) {
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
  return jsonDocument(j);
}

}  // namespace

void registerBoundsCommand(CLI::App& app, CommandContext& context) {
  auto args = std::make_shared<BoundsArguments>();
  CLI::App* cmd = app.add_subcommand(
      "bounds",
      "Exact lower bounds (steps, rounds per chunk) and algbw upper bounds of collectives on a topology "
      "(exit 0 ok, 2 unusable topology, 1 usage, 5 inconclusive: LP over its size limit)");
  addTopologyArgument(cmd, args->topology);
  cmd->add_option(
      "collective", args->collective,
      "allgather, reducescatter, allreduce (as reducescatter + allgather), alltoall, broadcast, reduce, scatter or "
      "gather (default: all)");
  cmd->add_option("--root", args->root, "root rank of broadcast, reduce, scatter and gather")->capture_default_str();
  addTextOrJsonFormat(cmd, args->format);
  cmd->callback([args, &context] {
    context.exitCode = runGuarded("bounds", [&] {
      std::vector<CollectiveType> which = requested(args->collective);
      progress::start("bounds");
      topo::Topology t = topo::loadTopology(args->topology);
      std::vector<synth::CollectiveBound> bounds;
      try {
        for (CollectiveType c : which) {
          progress::phase("bounding " + std::string(collectiveTypeName(c)) + " on " + t.name);
          bounds.push_back(synth::collectiveBound(t, c, args->root));
          if (c == CollectiveType::AllReduce)
            if (std::optional<synth::CollectiveBound> nvls = synth::inSwitchAllReduceBound(t)) bounds.push_back(*nvls);
        }
        progress::done();
      } catch (const synth::BoundsLimit& e) {
        std::cerr << "ccforge bounds: " << e.what() << " (inconclusive)\n";
        return static_cast<int>(kExitInconclusive);
      }
      return writeOutput("bounds", "", args->format == "json" ? json(t, bounds) : text(t, bounds));
    });
  });
}

}  // namespace ccforge::cli
