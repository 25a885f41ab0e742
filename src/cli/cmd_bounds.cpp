// `ccforge bounds TOPOLOGY [COLLECTIVE]`: exact lower bounds on steps and time, i.e. upper
// bounds on algorithm bandwidth (docs/bounds.md).
#include <memory>

#include "cli/commands.hpp"
#include "cli/topology_cli.hpp"
#include "cli/progress.hpp"
#include "cli/process_group_cli.hpp"
#include "synth/bounds/bounds.hpp"
#include "synth/bounds/bounds_report.hpp"

namespace ccforge::cli {
namespace {

struct BoundsArguments {
  std::string topology;
  std::string collective;
  int32_t root = 0;
  std::string format = "text";
  ProcessGroupArguments group;
};

std::vector<semantics::CollectiveType> requested(const std::string& name) {
  if (name.empty()) return synth::boundedCollectives();
  auto type = semantics::parseCollectiveType(name);
  if (!type) throw std::invalid_argument("unknown collective '" + name + "'");
  return {*type};
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
  addProcessGroupOptions(cmd, args->group);
  addTextOrJsonFormat(cmd, args->format);
  cmd->callback([args, &context] {
    context.exitCode = runGuarded("bounds", [&] {
      std::vector<semantics::CollectiveType> which = requested(args->collective);
      progress::start("bounds");
      topo::Topology t = loadGroupTopology(args->topology, processGroupRanks(args->group));
      std::vector<synth::CollectiveBound> bounds;
      try {
        for (semantics::CollectiveType c : which) {
          progress::phase("bounding " + std::string(collectiveTypeName(c)) + " on " + t.name);
          bounds.push_back(synth::collectiveBound(t, c, args->root));
          if (c == semantics::CollectiveType::AllReduce)
            if (std::optional<synth::CollectiveBound> nvls = synth::inSwitchAllReduceBound(t)) bounds.push_back(*nvls);
        }
        progress::done();
      } catch (const synth::BoundsLimit& e) {
        std::cerr << "ccforge bounds: " << e.what() << " (inconclusive)\n";
        return static_cast<int>(kExitInconclusive);
      }
      return writeOutput("bounds", "",
                         args->format == "json" ? synth::boundsJson(t, bounds) : synth::boundsText(t, bounds));
    });
  });
}

}  // namespace ccforge::cli
