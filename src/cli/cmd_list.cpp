// `ccforge list`: the algorithm library, with each algorithm's collective, parameters and defaults.
#include <iostream>

#include "cli/commands.hpp"
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
  out << "\nccforge compile NAME [key=value ...] writes one as MSCCL-IR; ccforge dot NAME [key=value ...] draws it.\n";
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
