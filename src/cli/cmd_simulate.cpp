// `ccforge simulate FILE.xml TOPOLOGY`: time, algbw and busbw of an MSCCL-IR program on a
// topology per message size, from an event-driven alpha-beta simulation (docs/simulate.md).
#include <fmt/format.h>

#include <memory>

#include "cli/progress.hpp"
#include "cli/commands.hpp"
#include "cli/process_group_cli.hpp"
#include "cli/topology_cli.hpp"
#include "driver/perf_sweep.hpp"
#include "driver/perf_table.hpp"
#include "ir/reader.hpp"
#include "ir/names.hpp"
#include "runtime/call.hpp"
#include "runtime/core/data_type.hpp"
#include "runtime/loader.hpp"
#include "runtime/names.hpp"
#include "runtime/program.hpp"
#include "runtime/program_set.hpp"
#include "semantics/collective.hpp"
#include "sim/nccl_model.hpp"
#include "sim/simulate.hpp"
#include "sim/simulation_report.hpp"
#include "sim/sizes.hpp"

namespace ccforge::cli {
namespace {

struct SimulateArguments {
  std::string file;
  std::string topology;
  std::string sizes = "1KB..1GB";
  std::string arch;  // "": the topology's (its "sm")
  std::string format = "text";
  uint64_t eventLimit = sim::kDefaultEventLimit;
  // nccl-tests sweep (-b/-e/-f): prints the nccl-tests table instead of the size list.
  std::string minBytes, maxBytes;
  uint64_t factor = 2;
  std::string dtype = "f32";
  std::string op = "sum";
  int32_t root = 0;
  bool sizesGiven = false;
  // --nccl: the positional is a collective, and the table is NCCL's own choice, predicted.
  bool nccl = false;
  int32_t gpusPerThread = 1;
  std::vector<std::string> environment;
  ProcessGroupArguments group;  // the program's ranks are these machine ranks
};

sim::Arch archArgument(const SimulateArguments& args, const topo::Topology& topology) {
  return args.arch.empty() ? sim::archOf(topology) : *sim::parseArch(args.arch);
}

std::optional<sim::Arch> archArgumentOrNone(const SimulateArguments& args) {
  if (args.arch.empty()) return std::nullopt;
  return sim::parseArch(args.arch);
}

// One row per swept size: the simulated time in the columns of each call form the file serves
// and the runtime would select it for; N/A for a form it does not serve; skipped with the
// runtime's reason otherwise.
int runSweep(const SimulateArguments& args) {
  if (args.sizesGiven) throw std::invalid_argument("give either --sizes or -b/-e/-f, not both");
  const std::vector<uint64_t> sizes = driver::sweepSizes(args.minBytes, args.maxBytes, args.factor);
  const auto dtype = runtime::parseDataType(args.dtype);
  if (!dtype)
    throw std::invalid_argument("unsupported --dtype '" + args.dtype + "' (supported: " + runtime::dataTypeList() +
                                ")");
  const auto op = runtime::parseReduceOp(args.op);
  if (!op)
    throw std::invalid_argument("unsupported --op '" + args.op + "' (supported: " + runtime::reduceOpList() + ")");

  ir::Algorithm algorithm = ir::readAlgorithmFile(args.file).algorithm;
  topo::Topology topology = loadGroupTopology(args.topology, processGroupRanks(args.group));
  // The runtime's own selection decides which sizes and forms the file would be chosen for.
  std::optional<runtime::ExecutableProgram> program;
  std::string unloadable;
  try {
    program = runtime::loadExecutable(algorithm, args.file, runtime::LoadOptions{});
  } catch (const runtime::ProgramRejected& e) {
    unloadable = e.what();
  }
  if (!program)
    throw std::invalid_argument(args.file + ": the runtime does not load it (" + unloadable +
                                "), so no size would select it; --sizes simulates it anyway");
  const size_t elem = runtime::dataTypeSize(*dtype);
  const int64_t m = runtime::sizeMultiplier(program->collective(), program->ranks());

  driver::PerfTable table;
  table.preamble.push_back("ccforge simulate " + args.file + " on " + topology.name + ": " + algorithm.collName + ", " +
                           std::to_string(algorithm.gpus.size()) + " ranks, " +
                           std::string(ir::protocolName(algorithm.proto)) + ", arch " +
                           std::string(sim::archName(archArgument(args, topology))));
  table.preamble.push_back(
      "simulated times (event-driven alpha-beta model), not measurements; #wrong '-': data is not checked");
  const std::vector<driver::SweepCall> measured = driver::addSweepRows(
      table, sizes,
      {.elementBytes = elem,
       .multiplier = static_cast<uint64_t>(m),
       .type = driver::ncclTestsTypeName(args.dtype),
       .redop = runtime::reduces(program->collective()) ? args.op : "none",  // as nccl-tests prints it
       .root = isRooted(program->collective()) ? args.root : -1},
      [&](semantics::CallForm form) { return program->serves(form); },
      [&](const driver::SweepCall& c) {
        runtime::CallShape call;
        call.collective = program->collective();
        call.ranks = program->ranks();
        call.root = args.root;
        call.dtype = *dtype;
        call.op = *op;
        call.form = c.form;
        call.count = c.count;
        return runtime::mismatch(*program, call);
      });
  std::vector<uint64_t> simulated;
  for (const driver::SweepCall& c : measured)
    if (simulated.empty() || simulated.back() != c.bytes) simulated.push_back(c.bytes);
  if (!simulated.empty()) {
    sim::SimulationOptions options;
    options.sizes = simulated;
    options.arch = archArgument(args, topology);
    options.eventLimit = args.eventLimit;
    sim::SimulationReport report = sim::simulate(algorithm, args.file, topology, options);
    size_t next = 0;
    for (driver::PerfRow& row : table.rows) {
      if (next < report.results.size() && report.results[next].bytes == row.bytes) {
        const sim::SizeResult& r = report.results[next++];
        for (driver::PerfCell* cell : {&row.outOfPlace, &row.inPlace})
          if (cell->status == driver::PerfCell::Status::Measured) {
            cell->timeUs = r.timeUs;
            cell->algbwGBps = r.algbwGBps;
            cell->busbwGBps = r.busbwGBps;
            cell->program = args.file;
          }
      }
    }
  }
  const std::string out = args.format == "json"  ? driver::perfTableJson(table)
                          : args.format == "csv" ? driver::perfTableCsv(table)
                                                 : driver::perfTableText(table);
  const int written = writeOutput("simulate", "", out);
  if (simulated.empty()) {
    std::cerr << "ccforge simulate: no size of the sweep would select " << args.file << " (see the skipped rows)\n";
    return kExitUsage;
  }
  return written;
}

// One "# FROM..TO: algorithm protocol (channels)" line per run of sizes with the same choice.
std::vector<std::string> choiceLines(const std::vector<uint64_t>& sizes, const std::vector<sim::NcclChoice>& choices) {
  std::vector<std::string> out;
  auto label = [](const sim::NcclChoice& c) {
    return c.algorithm + " " + std::string(ir::protocolName(c.protocol)) + " (" + std::to_string(c.channels) +
           (c.channels == 1 ? " channel)" : " channels)");
  };
  for (size_t i = 0; i < sizes.size();) {
    size_t j = i;
    while (j + 1 < sizes.size() && label(choices[j + 1]) == label(choices[i])) ++j;
    out.push_back("#   " + std::to_string(sizes[i]) + (j > i ? ".." + std::to_string(sizes[j]) : "") +
                  " B: " + label(choices[i]));
    i = j + 1;
  }
  return out;
}

// `simulate --nccl COLLECTIVE TOPOLOGY -b/-e/-f`: the nccl-tests table NCCL is predicted to show.
int runNcclSweep(const SimulateArguments& args) {
  if (args.sizesGiven) throw std::invalid_argument("--nccl takes -b/-e/-f, not --sizes");
  if (args.minBytes.empty() && args.maxBytes.empty())
    throw std::invalid_argument("--nccl needs -b (and -e, -f) for its sweep");
  const std::optional<semantics::CollectiveType> collective = semantics::parseCollectiveType(args.file);
  if (!collective)
    throw std::invalid_argument(
        "--nccl takes a collective (allreduce, allgather, reducescatter, alltoall, broadcast, "
        "reduce), not '" +
        args.file + "'");
  if (args.gpusPerThread < 1 || args.gpusPerThread > 1024)
    throw std::invalid_argument("-g takes 1 to 1024 GPUs per thread");
  const std::vector<uint64_t> sizes = driver::sweepSizes(args.minBytes, args.maxBytes, args.factor);
  const auto dtype = runtime::parseDataType(args.dtype);
  if (!dtype)
    throw std::invalid_argument("unsupported --dtype '" + args.dtype + "' (supported: " + runtime::dataTypeList() +
                                ")");
  const sim::NcclEnvironment environment = sim::parseNcclEnvironment(args.environment);
  const topo::Topology topology = loadGroupTopology(args.topology, processGroupRanks(args.group));
  const auto ranks = static_cast<int32_t>(topology.gpus().size());
  if (isRooted(*collective) && (args.root < 0 || args.root >= ranks))
    throw std::invalid_argument("--root " + std::to_string(args.root) + " is not a rank of " + topology.name);
  const sim::NcclSetup setup =
      sim::ncclSetup(topology, sim::modelParameters(topology, archArgumentOrNone(args)), environment);

  driver::PerfTable table;
  const sim::NcclMachine& m = setup.machine;
  std::string settings;
  for (const std::string& e : environment.settings) settings += " " + e;
  table.preamble.push_back(fmt::format("ccforge simulate --nccl {} on {}: {} ranks in {} box{}, {}, -g {}{}",
                                       collectiveTypeName(*collective), topology.name, ranks, m.nodes,
                                       m.nodes == 1 ? "" : "es", sim::archName(setup.parameters.arch),
                                       args.gpusPerThread, settings));
  table.preamble.push_back(fmt::format(
      "NCCL's view: {} channels of {:g} GB/s ({} CTAs){}", m.channels, m.nodes <= 2 ? m.bwIntra : m.bwInter,
      m.commChannels, m.nvls ? fmt::format(", NVLS {} heads of {:g} GB/s", m.nvlsHeads, m.nvlsBwIntra) : ""));
  table.preamble.push_back(
      "predicted times of NCCL's own choice (docs/simulate.md), not measurements; #wrong '-': nothing runs");
  const size_t elem = runtime::dataTypeSize(*dtype);
  const int64_t multiplier = runtime::sizeMultiplier(*collective, ranks);
  std::vector<sim::NcclChoice> choices;
  for (uint64_t bytes : sizes)
    choices.push_back(
        sim::ncclChoice(setup, {.collective = *collective, .bytes = bytes, .gpusPerThread = args.gpusPerThread}));
  const std::vector<driver::SweepCall> predicted = driver::addSweepRows(
      table, sizes,
      {.elementBytes = elem,
       .multiplier = static_cast<uint64_t>(multiplier),
       .type = driver::ncclTestsTypeName(args.dtype),
       .redop = runtime::reduces(*collective) ? args.op : "none",
       .root = isRooted(*collective) ? args.root : -1},
      [](semantics::CallForm) { return true; }, [](const driver::SweepCall&) { return std::string(); });
  for (const driver::SweepCall& call : predicted) {
    const sim::NcclChoice& c = choices[call.row];
    driver::PerfCell& cell = driver::cellOf(table, call);
    cell.timeUs = c.timeUs;
    cell.algbwGBps = static_cast<double>(call.bytes) / (c.timeUs * 1e3);
    cell.busbwGBps = cell.algbwGBps * busBandwidthFactor(*collective, ranks);
    cell.program = fmt::format("nccl {} {} ({} channels)", c.algorithm, ir::protocolName(c.protocol), c.channels);
  }
  if (args.format == "json") return writeOutput("simulate", "", driver::perfTableJson(table));
  if (args.format == "csv") return writeOutput("simulate", "", driver::perfTableCsv(table));
  std::string text = driver::perfTableText(table);
  text += "# NCCL's choice:\n";
  for (const std::string& line : choiceLines(sizes, choices)) text += line + "\n";
  return writeOutput("simulate", "", text);
}

int runSimulate(const SimulateArguments& args) {
  if (args.nccl) return runNcclSweep(args);
  if (!args.minBytes.empty() || !args.maxBytes.empty()) return runSweep(args);
  if (args.format == "csv") throw std::invalid_argument("--format csv is for -b/-e/-f sweeps");
  sim::SimulationOptions options;
  options.sizes = sim::parseSizes(args.sizes);
  options.eventLimit = args.eventLimit;
  progress::start("simulate");
  ir::Algorithm algorithm = ir::readAlgorithmFile(args.file).algorithm;
  topo::Topology topology = loadGroupTopology(args.topology, processGroupRanks(args.group));
  options.arch = archArgument(args, topology);
  {
    progress::phase("simulating " + args.file + " on " + topology.name + " at " + std::to_string(options.sizes.size()) +
                    (options.sizes.size() == 1 ? " size" : " sizes"));
    sim::SimulationReport report = sim::simulate(algorithm, args.file, topology, options);
    progress::done();
    return writeOutput("simulate", "",
                       args.format == "json"
                           ? sim::simulationJson(args.file, algorithm, topology, archArgument(args, topology), report)
                           : sim::simulationText(args.file, algorithm, topology, archArgument(args, topology), report));
  }
}

int simulateGuarded(const SimulateArguments& args) {
  try {
    return runSimulate(args);
  } catch (const sim::SimulationViolation& e) {
    std::cerr << "ccforge simulate: " << args.file << ": " << e.what() << "\n";
    return kExitViolation;
  } catch (const sim::SimulationLimit& e) {
    std::cerr << "ccforge simulate: " << args.file << ": " << e.what()
              << " (inconclusive; try fewer or smaller sizes)\n";
    return kExitInconclusive;
  }
}

}  // namespace

void registerSimulateCommand(CLI::App& app, CommandContext& context) {
  auto args = std::make_shared<SimulateArguments>();
  CLI::App* cmd = app.add_subcommand(
      "simulate",
      "Simulate an MSCCL-IR program on a topology: time, algbw and busbw per size (exit 0 ok, 10 the "
      "program deadlocks or mismatches transfers, 5 event limit, 2 unusable input, 1 usage)");
  cmd->add_option("file", args->file, "MSCCL-IR file (.xml, .xml.gz), or with --nccl a collective")->required();
  addTopologyArgument(cmd, args->topology);
  cmd->add_option("--sizes", args->sizes,
                  "sizes in bytes as nccl-tests counts them: A..B doubles, or a comma list; "
                  "K, M, G are powers of 1024")
      ->capture_default_str()
      ->each([args](const std::string&) { args->sizesGiven = true; });
  cmd->add_option("-b,--minbytes", args->minBytes,
                  "nccl-tests sweep: smallest size (8, 1K, 128M, 1G); prints the nccl-tests table");
  cmd->add_option("-e,--maxbytes", args->maxBytes, "nccl-tests sweep: largest size (default: -b)");
  cmd->add_option("-f,--stepfactor", args->factor, "nccl-tests sweep: factor between sizes")->capture_default_str();
  cmd->add_option("--dtype", args->dtype, "sweep: element type for the count, type and runtime-selection columns")
      ->capture_default_str();
  cmd->add_option("--op", args->op, "sweep: reduction op of the redop column")->capture_default_str();
  cmd->add_option("--root", args->root, "sweep: root of rooted collectives")->capture_default_str();
  cmd->add_option(
         "--arch", args->arch,
         "GPU generation whose model parameters apply (default: the spec's \"sm\"), or none for the pure link model")
      ->check(CLI::IsMember({"sm70", "sm80", "sm90", "sm100", "none"}));
  cmd->add_option("--max-events", args->eventLimit, "event limit per size")->capture_default_str();
  cmd->add_flag("--nccl", args->nccl,
                "predict NCCL's own choice for a collective (the positional) instead of running a file: the nccl-tests "
                "table of -b/-e/-f");
  cmd->add_option("-g,--ngpus", args->gpusPerThread, "--nccl: GPUs one thread launches on (nccl-tests -g)")
      ->capture_default_str();
  cmd->add_option(
      "--env", args->environment,
      "--nccl: NAME=VALUE of NCCL_ALGO, NCCL_PROTO, NCCL_MIN_NCHANNELS, NCCL_MAX_NCHANNELS, NCCL_NVLS_ENABLE, "
      "NCCL_LAUNCH_MODE (repeatable)");
  addProcessGroupOptions(cmd, args->group);
  cmd->add_option("--format", args->format, "text or json (and csv for -b/-e/-f sweeps)")
      ->check(CLI::IsMember({"text", "json", "csv"}))
      ->capture_default_str();
  cmd->callback(
      [args, &context] { context.exitCode = runGuarded("simulate", [&] { return simulateGuarded(*args); }); });
}

}  // namespace ccforge::cli
