// `ccforge calibrate LOG... --topology SPEC [-o CALIBRATED.json]`: the model parameters fitted to
// a machine's nccl-tests logs, the fit's report, and the spec with its "calibration"
// (docs/calibrate.md).
#include <filesystem>
#include <memory>

#include "calibrate/calibrated_spec.hpp"
#include "calibrate/fit.hpp"
#include "calibrate/fit_report.hpp"
#include "calibrate/nccl_tests_log.hpp"
#include "cli/commands.hpp"
#include "cli/topology_cli.hpp"
#include "base/load_file.hpp"
#include "semantics/collective.hpp"
#include "topology/catalog.hpp"
#include "topology/spec_reader.hpp"

namespace ccforge::cli {
namespace {

struct CalibrateArguments {
  std::vector<std::string> logs;
  std::string topology;
  std::string output;
  std::string collective;
  std::vector<std::string> environment;
  std::string format = "text";
};

int runCalibrate(const CalibrateArguments& args) {
  std::optional<semantics::CollectiveType> collective;
  if (!args.collective.empty()) {
    collective = semantics::parseCollectiveType(args.collective);
    if (!collective) throw std::invalid_argument("--collective: unknown collective '" + args.collective + "'");
  }
  (void)sim::parseNcclEnvironment(args.environment);  // a bad setting is a usage error before any work
  const topo::Topology topology = topo::loadTopology(args.topology);
  std::vector<calibrate::LogInput> logs;
  for (const std::string& path : args.logs)
    for (calibrate::NcclTestsTable& table :
         calibrate::readNcclTestsLog(base::loadFile(path, base::limits::kMaxLogBytes), path, collective)) {
      calibrate::checkAgainst(table, topology);
      logs.push_back({std::move(table), args.environment});
    }
  const calibrate::FitResult fit = calibrate::fitCalibration(topology, logs);
  if (!args.output.empty()) {
    const std::optional<std::string_view> catalog = topo::catalogSpec(args.topology);
    const std::string text = catalog ? std::string(*catalog) : base::loadFile(args.topology);
    const std::string directory = catalog ? std::string() : std::filesystem::path(args.topology).parent_path().string();
    const std::string spec = calibrate::calibratedSpec(text, directory, fit.calibration);
    (void)topo::readTopology(spec, args.output, {});  // it must read back; a failure is ccforge's bug
    if (const int written = writeOutput("calibrate", args.output, spec); written != kExitVerified) return written;
  }
  return writeOutput("calibrate", "",
                     args.format == "json" ? calibrate::fitReportJson(fit, logs, topology.name)
                                           : calibrate::fitReportText(fit, logs, topology.name));
}

}  // namespace

void registerCalibrateCommand(CLI::App& app, CommandContext& context) {
  auto args = std::make_shared<CalibrateArguments>();
  CLI::App* cmd = app.add_subcommand(
      "calibrate",
      "Fit the performance model to nccl-tests logs of a machine and write its calibrated spec (exit 0 ok, "
      "2 unusable log or spec, 1 usage)");
  cmd->add_option("logs", args->logs, "nccl-tests output files (all_reduce_perf, all_gather_perf, ...)")->required();
  cmd->add_option("-t,--topology", args->topology, "the machine: catalog name or spec path")->required();
  cmd->add_option("-o,--output", args->output, "write the spec with its \"calibration\" here");
  cmd->add_option("--collective", args->collective, "the collective of tables whose log does not name it");
  cmd->add_option("--env", args->environment,
                  "NAME=VALUE the runs had and the log does not print (NCCL_ALGO, NCCL_PROTO, NCCL_MIN_NCHANNELS, "
                  "NCCL_MAX_NCHANNELS, NCCL_NVLS_ENABLE, NCCL_LAUNCH_MODE; repeatable)");
  addTextOrJsonFormat(cmd, args->format);
  cmd->callback([args, &context] { context.exitCode = runGuarded("calibrate", [&] { return runCalibrate(*args); }); });
}

}  // namespace ccforge::cli
