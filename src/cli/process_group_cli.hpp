// The process-group options of synth, simulate and bounds (docs/synth.md, "Process groups"):
// --ranks LIST, or --group-size N with --group-stride and --group-start, name machine ranks; the
// command then runs on the topology that group's communicator sees (topology/process_group.hpp).
#pragma once

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

#include "base/json_document.hpp"
#include "topology/process_group.hpp"
#include "topology/spec_reader.hpp"

namespace ccforge::cli {

struct ProcessGroupArguments {
  std::string ranks;  // --ranks
  std::optional<int32_t> size;
  int32_t stride = 1;
  int32_t start = 0;
};

inline void addProcessGroupOptions(CLI::App* cmd, ProcessGroupArguments& args) {
  CLI::Option* ranks = cmd->add_option(
      "--ranks", args.ranks,
      "a process group: machine ranks, increasing, as a list and ranges (0,8,16 or 8-15); the command runs on the "
      "topology that group's communicator sees");
  CLI::Option* size = cmd->add_option(
      "--group-size", args.size, "a process group of this many ranks: --group-start, then every --group-stride-th");
  cmd->add_option("--group-stride", args.stride, "with --group-size: distance between the group's machine ranks")
      ->capture_default_str()
      ->needs(size);
  cmd->add_option("--group-start", args.start, "with --group-size: the group's first machine rank")
      ->capture_default_str()
      ->needs(size);
  ranks->excludes(size);
}

// The group's machine ranks; empty when no group was asked for.
inline std::vector<int32_t> processGroupRanks(const ProcessGroupArguments& args) {
  if (!args.ranks.empty()) return topo::parseRankList(args.ranks);
  if (args.size) return topo::stridedRanks(args.start, args.stride, *args.size);
  return {};
}

// The machine `topology` names, or the topology the group's communicator sees on it.
inline topo::Topology loadGroupTopology(const std::string& topology, const std::vector<int32_t>& group) {
  topo::Topology machine = topo::loadTopology(topology);
  if (group.empty()) return machine;
  return topo::processGroupTopology(machine, group);
}

// "process_group" in a JSON report: the machine, its GPU count, the group's machine ranks and
// their GPUs' names (group rank r is the r-th of each); the report unchanged without a group.
inline std::string withProcessGroup(const std::string& reportJson, const std::string& machine,
                                    const topo::Topology& groupTopology, const std::vector<int32_t>& group,
                                    int32_t machineGpus) {
  if (group.empty()) return reportJson;
  nlohmann::ordered_json j = nlohmann::ordered_json::parse(reportJson);
  nlohmann::ordered_json names = nlohmann::ordered_json::array();
  for (int32_t v : groupTopology.gpus()) names.push_back(groupTopology.vertices()[static_cast<size_t>(v)].name);
  j["process_group"] = {{"machine", machine},
                        {"machine_gpus", machineGpus},
                        {"ranks", group},
                        {"gpus", names},
                        {"boxes", groupTopology.boxCount()}};
  return base::jsonDocument(j);
}

// The text report's first line for a group.
inline std::string processGroupLine(const std::string& machine, const std::vector<int32_t>& group, int32_t machineGpus,
                                    const topo::Topology& groupTopology) {
  if (group.empty()) return {};
  std::string list;
  for (size_t i = 0; i < group.size(); ++i) list += (i ? "," : "") + std::to_string(group[i]);
  return fmt::format("process group of {} ranks of {} ({} GPUs), in {} box{}: machine ranks {}\n", group.size(),
                     machine, machineGpus, groupTopology.boxCount(), groupTopology.boxCount() == 1 ? "" : "es", list);
}

}  // namespace ccforge::cli
