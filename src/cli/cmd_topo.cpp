// `ccforge topo show|dot|list|import`: inspect topology specs, import a machine (docs/topologies.md).
#include <memory>

#include "cli/commands.hpp"
#include "cli/picture_output.hpp"
#include "cli/topology_cli.hpp"
#include "topology/catalog.hpp"
#include "topology/machine_import.hpp"
#include "viz/topology_dot.hpp"
#include "topology/spec_reader.hpp"
#include "topology/summary.hpp"
#include "topology/summary_report.hpp"

namespace ccforge::cli {
namespace {

using namespace ccforge::topo;

struct TopoArguments {
  std::string topology;
  std::string format = "text";
  std::string output;
};

struct ImportArguments {
  std::vector<std::string> files;
  std::string output;
  std::string name = "imported";
  int32_t boxes = 1;
  std::string fabric = "rail";
  int32_t railSwitches = 0;
  std::string spineOversubscription = "1";
  int32_t boxesPerLeaf = 4;
  bool noNvls = false;
  int32_t sm = 0;
  std::string nvlinkGBps;
  double netAlphaUs = 0;
  bool quiet = false;
};

int runImport(const ImportArguments& a) {
  ImportOptions options;
  options.name = a.name;
  options.boxes = a.boxes;
  options.fabric = a.fabric == "switch" ? Fabric::Switch : a.fabric == "clos" ? Fabric::Clos : Fabric::Rail;
  options.railSwitches = a.railSwitches;
  const std::optional<Rational> oversubscription = parseRational(a.spineOversubscription);
  if (!oversubscription || *oversubscription < 0)
    throw std::invalid_argument("--spine-oversubscription wants a number >= 0 or p/q (0: no spine), not '" +
                                a.spineOversubscription + "'");
  options.spineOversubscription = *oversubscription;
  options.boxesPerLeaf = a.boxesPerLeaf;
  options.nvls = !a.noNvls;
  if (a.sm > 0) options.sm = a.sm;
  if (!a.nvlinkGBps.empty()) {
    auto r = parseRational(a.nvlinkGBps);
    if (!r || *r <= 0)
      throw std::invalid_argument("--nvlink-gbps wants a positive number or p/q, not '" + a.nvlinkGBps + "'");
    options.nvlinkGBps = *r;
  }
  if (a.netAlphaUs < 0) throw std::invalid_argument("--net-alpha-us must be >= 0");
  options.networkAlphaUs = a.netAlphaUs;
  std::vector<ImportedBox> boxes;
  for (const std::string& f : a.files) boxes.push_back(readMachineFile(f));
  ImportResult result = buildImportedSpec(boxes, options);
  // The spec must read back; a failure here is ccforge's own bug, not the input's.
  (void)readTopology(result.specJson, a.output.empty() ? "<imported>" : a.output, {});
  if (!a.quiet)
    for (const std::string& n : result.notes) std::cerr << "note: " << n << "\n";
  return writeOutput("topo import", a.output, result.specJson);
}

}  // namespace

void registerTopoCommand(CLI::App& app, CommandContext& context) {
  auto args = std::make_shared<TopoArguments>();
  CLI::App* topo =
      app.add_subcommand("topo", "Inspect topology specs (exit 0 ok, 2 unreadable or invalid spec, 1 usage)");
  topo->require_subcommand(1);

  CLI::App* show = topo->add_subcommand("show", "Summary: sizes, GPU bandwidth, diameter, automorphisms");
  addTopologyArgument(show, args->topology);
  addTextOrJsonFormat(show, args->format);
  show->callback([args, &context] {
    context.exitCode = runGuarded("topo show", [&] {
      Topology t = loadTopology(args->topology);
      TopologySummary s = summarize(t);
      return writeOutput("topo show", "", args->format == "json" ? topo::summaryJson(t, s) : topo::summaryText(t, s));
    });
  });

  CLI::App* dot = topo->add_subcommand("dot", "Graphviz DOT of a topology");
  addTopologyArgument(dot, args->topology);
  dot->add_option("-o,--output", args->output,
                  "write to this file instead of stdout: DOT for .dot/.gv, rendered by Graphviz for .svg, .png, .pdf");
  dot->callback([args, &context] {
    context.exitCode = runGuarded("topo dot", [&] {
      if (!args->output.empty() && !viz::formatForPath(args->output))
        throw std::invalid_argument("-o " + args->output + ": the extension must be .dot, .gv, .svg, .png or .pdf");
      const std::string text = viz::topologyToDot(loadTopology(args->topology));
      if (args->output.empty()) return writeOutput("topo dot", "", text);
      writePictureFile(text, args->output);
      return static_cast<int>(kExitVerified);
    });
  });

  auto imp = std::make_shared<ImportArguments>();
  CLI::App* import = topo->add_subcommand(
      "import", "Write a topology spec from NCCL topology dumps (NCCL_TOPO_DUMP_FILE) or `nvidia-smi topo -m` output");
  import->add_option("files", imp->files, "one file per box (or one file with --boxes N)")
      ->required()
      ->check(CLI::ExistingFile);
  import->add_option("-o,--output", imp->output, "write the spec here instead of stdout");
  import->add_option("--name", imp->name, "the spec's name")->capture_default_str();
  import->add_option("--boxes", imp->boxes, "copies of the one input box")->capture_default_str();
  import
      ->add_option("--fabric", imp->fabric,
                   "how NICs of different boxes meet: rail (a leaf switch per NIC index), switch (one switch) or clos "
                   "(a leaf switch per --boxes-per-leaf boxes); rail and clos leaves meet at a spine")
      ->check(CLI::IsMember({"rail", "switch", "clos"}))
      ->capture_default_str();
  import
      ->add_option("--spine-oversubscription", imp->spineOversubscription,
                   "rail and clos: each leaf's uplink is its NIC links' bandwidth divided by this (1: non-blocking; 0: "
                   "no spine)")
      ->capture_default_str();
  import->add_option("--boxes-per-leaf", imp->boxesPerLeaf, "clos: boxes whose NICs share a leaf switch")
      ->capture_default_str();
  import->add_flag("--no-nvls", imp->noNvls, "the NVSwitch does not reduce (no NVLink SHARP), even with sm 90+");
  import->add_option(
      "--rail-switches", imp->railSwitches,
      "with --fabric rail: K switches, NIC j on rail<j mod K> (the catalog's a100-2 has 2); default one per rail");
  import->add_option(
      "--sm", imp->sm,
      "compute capability (70, 80, 90, 100): required for nvidia-smi output with NVLinks, overrides a dump's");
  import->add_option("--nvlink-gbps", imp->nvlinkGBps,
                     "per-NVLink bandwidth per direction in GB/s, overriding the table");
  import->add_option("--net-alpha-us", imp->netAlphaUs, "alpha of each NIC-switch link (us)")->capture_default_str();
  import->add_flag("-q,--quiet", imp->quiet, "do not print the assumptions (they stay in the spec's notes)");
  import->callback([imp, &context] { context.exitCode = runGuarded("topo import", [&] { return runImport(*imp);
});
}  // namespace ccforge::cli
);

CLI::App* list = topo->add_subcommand("list", "The catalog topologies");
list->callback([&context] {
  context.exitCode = runGuarded("topo list", [] { return writeOutput("topo list", "", topo::catalogText()); });
});
}

}  // namespace ccforge::cli
