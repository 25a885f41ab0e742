// `ccforge`: verify, compile, synthesize, visualise and run MSCCL-IR collective algorithms.
#include <CLI/CLI.hpp>
#include <malloc.h>

#include <algorithm>
#include <cstdio>
#include <exception>
#include <iostream>
#include <string>

#include "cli/commands.hpp"
#include "cli/did_you_mean.hpp"
#include "cli/exit_codes.hpp"
#include "cli/option_checks.hpp"
#include "cli/progress.hpp"
#include "cli/script_cli.hpp"
#include "verify/rules.hpp"

int main(int argc, char** argv) {
  // Reports reach a pipe line by line, as they do a terminal (std::cout writes through stdio).
  std::setvbuf(stdout, nullptr, _IOLBF, BUFSIZ);
  // Large programs build vectors of hundreds of MB that grow and are freed phase after phase.
  // glibc would map each large block afresh and unmap it when freed, and every page of it then
  // faults in again (a third of a 1,024-rank compile's time on a virtual machine): keep freed
  // memory in the heap for the next phase instead.
  mallopt(M_MMAP_MAX, 0);
  mallopt(M_TRIM_THRESHOLD, 1 << 30);
  CLI::App app{"ccforge: build, verify and run GPU collective-communication algorithms (MSCCL-IR)"};
  app.set_version_flag("--version", "ccforge " + std::string(ccforge::verify::toolVersion()));
  app.require_subcommand(1);
  // Accepted before or after the subcommand's name (fallthrough); takes effect as it is parsed.
  app.fallthrough();
  app.add_flag_callback(
         "--progress", [] { ccforge::cli::progress::force(); },
         "report progress (phase, instance, elapsed time) on stderr even when it is not a terminal")
      ->trigger_on_parse();
  ccforge::cli::CommandContext context;
  ccforge::cli::registerVerifyCommand(app, context);
  ccforge::cli::registerSelectCommand(app, context);
  ccforge::cli::registerListCommand(app, context);
  ccforge::cli::registerCompileCommand(app, context);
  ccforge::cli::registerDotCommand(app, context);
  ccforge::cli::registerTopoCommand(app, context);
  ccforge::cli::registerBoundsCommand(app, context);
  ccforge::cli::registerSimulateCommand(app, context);
  ccforge::cli::registerCalibrateCommand(app, context);
  ccforge::cli::registerRunCommand(app, context);
  ccforge::cli::registerSynthCommand(app, context);
  ccforge::cli::registerPlanCommand(app, context);
  ccforge::cli::registerTuneCommand(app, context);
  ccforge::cli::registerCompletionCommand(app, context);
  ccforge::cli::refuseEmptyAndNegativeValues(app);
  // `compile|dot SCRIPT.py ...`: the script's own arguments are kept away from CLI11.
  std::vector<std::string> args = ccforge::cli::scriptArgumentOrder(app, argc, argv);
  try {
    std::vector<char*> pointers;
    for (std::string& a : args) pointers.push_back(a.data());
    app.parse(static_cast<int>(pointers.size()), pointers.data());
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    const std::vector<std::string> hints = ccforge::cli::didYouMean(app, {args.begin() + 1, args.end()});
    // A first word that names no command: CLI11 would only say that a subcommand is required.
    const auto subcommands = app.get_subcommands([](const CLI::App*) { return true; });
    const bool unknownCommand = args.size() > 1 && !args[1].starts_with("-") &&
                                std::none_of(subcommands.begin(), subcommands.end(),
                                             [&](const CLI::App* c) { return c->get_name() == args[1]; });
    if (!unknownCommand || hints.empty()) app.exit(e);
    for (const std::string& hint : hints) std::cerr << "ccforge: " << hint << "\n";
    if (unknownCommand && !hints.empty()) std::cerr << "Run with --help for more information.\n";
    return ccforge::cli::kExitUsage;
  } catch (const std::exception& e) {
    std::cerr << "ccforge: internal error: " << e.what() << "\n";
    return ccforge::cli::kExitInternalError;
  }
  ccforge::cli::progress::done();
  return context.exitCode;
}
