// Each subcommand lives in its own file and registers itself on the application.
// A registered command's callback stores its exit code in `exitCode`.
#pragma once

#include <CLI/CLI.hpp>

namespace ccforge::cli {

struct CommandContext {
  int exitCode = 0;
};

// One line per subcommand, in the order `ccforge --help` lists them.
void registerVerifyCommand(CLI::App& app, CommandContext& context);
void registerSelectCommand(CLI::App& app, CommandContext& context);
void registerListCommand(CLI::App& app, CommandContext& context);
void registerCompileCommand(CLI::App& app, CommandContext& context);
void registerDotCommand(CLI::App& app, CommandContext& context);
void registerTopoCommand(CLI::App& app, CommandContext& context);
void registerBoundsCommand(CLI::App& app, CommandContext& context);
void registerSimulateCommand(CLI::App& app, CommandContext& context);
void registerCalibrateCommand(CLI::App& app, CommandContext& context);
void registerRunCommand(CLI::App& app, CommandContext& context);
void registerSynthCommand(CLI::App& app, CommandContext& context);
void registerPlanCommand(CLI::App& app, CommandContext& context);
void registerTuneCommand(CLI::App& app, CommandContext& context);
// Last: it lists every command registered before it.
void registerCompletionCommand(CLI::App& app, CommandContext& context);

}  // namespace ccforge::cli
