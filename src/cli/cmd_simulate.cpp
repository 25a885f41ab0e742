// `ccforge simulate FILE.xml TOPOLOGY`: time, algbw and busbw of an MSCCL-IR program on a
// topology per message size, from an event-driven alpha-beta simulation (docs/simulate.md).
#include <nlohmann/json.hpp>

#include <iomanip>
#include <memory>
#include <sstream>

#include "cli/commands.hpp"
#include "cli/topology_cli.hpp"
#include "cli/progress.hpp"
#include "ir/reader.hpp"
#include "topology/spec_reader.hpp"
#include "sim/simulate.hpp"
#include "sim/sizes.hpp"

namespace ccforge::cli {
namespace {

using nlohmann::ordered_json;

struct SimulateArguments {
  std::string file;
  std::string topology;
  std::string sizes = "1KB..1GB";
  std::string arch = "sm80";
  std::string format = "text";
  uint64_t eventLimit = sim::kDefaultEventLimit;
};

std::string protocolName(ir::Protocol p) {
  switch (p) {
    case ir::Protocol::Simple: return "Simple";
    case ir::Protocol::LL: return "LL";
    case ir::Protocol::LL128: return "LL128";
  }
  return "?";
}

std::string text(const SimulateArguments& args, const ir::Algorithm& a, const topo::Topology& t,
                 const sim::SimulationReport& r) {
  std::ostringstream out;
  out << "simulate " << args.file << " on " << t.name << ": " << a.collName << ", " << a.gpus.size() << " ranks, "
      << protocolName(a.proto) << ", " << a.nchannels << (a.nchannels == 1 ? " channel" : " channels") << ", arch "
      << args.arch << "\n";
  out << std::setw(12) << "size" << std::setw(14) << "time_us" << std::setw(13) << "algbw_GBps" << std::setw(13)
      << "busbw_GBps" << "\n";
  bool outside = false;
  out << std::fixed << std::setprecision(2);
  for (const sim::SizeResult& s : r.results) {
    out << std::setw(12) << sim::sizeName(s.bytes) << std::setw(14) << s.timeUs << std::setw(13) << s.algbwGBps
        << std::setw(13) << s.busbwGBps << (s.inSizeWindow ? "" : "  *") << "\n";
    outside = outside || !s.inSizeWindow;
  }
  if (outside) out << "* outside the algorithm's minBytes..maxBytes: the runtime would not select it\n";
  return out.str();
}

std::string json(const SimulateArguments& args, const ir::Algorithm& a, const topo::Topology& t,
                 const sim::SimulationReport& r) {
  ordered_json j;
  j["file"] = args.file;
  j["algorithm"] = a.name;
  j["collective"] = a.collName;
  j["ranks"] = a.gpus.size();
  j["protocol"] = protocolName(a.proto);
  j["topology"] = t.name;
  j["arch"] = args.arch;
  j["busbw_factor"] = r.busbwFactor;
  ordered_json results = ordered_json::array();
  for (const sim::SizeResult& s : r.results)
    results.push_back({{"size_bytes", s.bytes},
                       {"time_us", s.timeUs},
                       {"algbw_GBps", s.algbwGBps},
                       {"busbw_GBps", s.busbwGBps},
                       {"in_size_window", s.inSizeWindow},
                       {"tile_iterations", s.iterations},
                       {"transfers", s.transfers}});
  j["results"] = results;
  return j.dump(2) + "\n";
}

int runSimulate(const SimulateArguments& args) {
  sim::SimulationOptions options;
  options.sizes = sim::parseSizes(args.sizes);
  options.arch = *sim::parseArch(args.arch);
  options.eventLimit = args.eventLimit;
  progress::start("simulate");
  ir::Algorithm algorithm = ir::readAlgorithmFile(args.file).algorithm;
  topo::Topology topology = topo::loadTopology(args.topology);
  try {
    progress::phase("simulating " + args.file + " on " + topology.name + " at " + std::to_string(options.sizes.size()) +
                    (options.sizes.size() == 1 ? " size" : " sizes"));
    sim::SimulationReport report = sim::simulate(algorithm, args.file, topology, options);
    progress::done();
    return writeOutput("simulate", "",
                       args.format == "json" ? json(args, algorithm, topology, report) : text(args, algorithm, topology, report));
  } catch (const sim::SimulationViolation& e) {
    std::cerr << "ccforge simulate: " << args.file << ": " << e.what() << "\n";
    return kExitViolation;
  } catch (const sim::SimulationLimit& e) {
    std::cerr << "ccforge simulate: " << args.file << ": " << e.what() << " (inconclusive; try fewer or smaller sizes)\n";
    return kExitInconclusive;
  }
}

}  // namespace

void registerSimulateCommand(CLI::App& app, CommandContext& context) {
  auto args = std::make_shared<SimulateArguments>();
  CLI::App* cmd = app.add_subcommand(
      "simulate", "Simulate an MSCCL-IR program on a topology: time, algbw and busbw per size (exit 0 ok, 10 the "
                  "program deadlocks or mismatches transfers, 5 event limit, 2 unusable input, 1 usage)");
  cmd->add_option("file", args->file, "MSCCL-IR file (.xml, .xml.gz)")->required();
  addTopologyArgument(cmd, args->topology);
  cmd->add_option("--sizes", args->sizes, "sizes in bytes as nccl-tests counts them: A..B doubles, or a comma list; "
                                          "K, M, G are powers of 1024")
      ->capture_default_str();
  cmd->add_option("--arch", args->arch, "GPU generation for NCCL's per-channel bandwidth, or none for no cap")
      ->check(CLI::IsMember({"sm80", "sm90", "sm100", "none"}))
      ->capture_default_str();
  cmd->add_option("--max-events", args->eventLimit, "event limit per size")->capture_default_str();
  addTextOrJsonFormat(cmd, args->format);
  cmd->callback([args, &context] { context.exitCode = runGuarded("simulate", [&] { return runSimulate(*args); }); });
}

}  // namespace ccforge::cli
