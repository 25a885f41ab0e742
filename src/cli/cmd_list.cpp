// `ccforge list`: every name `ccforge compile` takes: the algorithm library, with each algorithm's
// collective, parameters and defaults, and the fused operators.
#include <iostream>

#include "cli/commands.hpp"
#include "fused_library.hpp"
#include "library.hpp"
#include "ir/names.hpp"

namespace ccforge::cli {
namespace {

void listAlgorithms(std::ostream& out) {
  for (const algorithms::LibraryEntry& e : algorithms::library()) {
    algorithms::Arguments defaults = algorithms::resolveArguments(e, {});
    const dsl::Program program = e.build(defaults, e.defaultProtocol);
    out << e.name << "  (" << program.binding().collective().describe() << ", " << ir::protocolName(e.defaultProtocol)
        << ", " << e.defaultTarget << ")\n";
    out << "    " << e.summary << "\n";
    for (const algorithms::Parameter& p : e.parameters) {
      std::string setting = p.name + "=" + (p.chosen ? std::string("auto") : std::to_string(p.defaultValue));
      setting.resize(std::max<size_t>(setting.size(), 16), ' ');
      out << "    " << setting << "  " << p.help << "\n";
    }
  }
  // Fused operators are written as IR directly (no DSL program), for ccforge's runtime only.
  for (const algorithms::FusedEntry& e : algorithms::fusedLibrary()) {
    std::string keys = "ranks chunks order bulk computetbs group lanes";
    for (const std::string& k : e.shapeKeys) keys += " " + k;
    out << e.name << "  (fused computation + collective, ccforge-fused; docs/fused.md)\n";
    out << "    " << e.summary << "\n";
    out << "    parameters: " << keys << "\n";
  }
  out << "\nccforge compile NAME [key=value ...] writes one as MSCCL-IR; ccforge dot NAME [key=value ...] draws a "
         "library "
         "algorithm (a fused operator: compile it to a file, then ccforge dot FILE).\n";
}

}  // namespace

void registerListCommand(CLI::App& app, CommandContext& context) {
  CLI::App* cmd = app.add_subcommand("list", "List the algorithm library: names, collectives, parameters, defaults");
  cmd->callback([&context] {
    listAlgorithms(std::cout);
    context.exitCode = 0;
  });
}

}  // namespace ccforge::cli
