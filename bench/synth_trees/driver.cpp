// Runs the tree-packing path of `ccforge synth` (runTreeSynthesis) on its own, for the
// benchmark script beside it and for testing before `ccforge synth` is registered:
//   synth_trees_driver TOPOLOGY COLLECTIVE [-o DIR] [--format text|json]
//                      [--composition auto|trees|hierarchical] [--timeout SECONDS]
#include <iostream>
#include <string>
#include <string_view>

#include "cli/exit_codes.hpp"
#include "cli/synth_arguments.hpp"

int main(int argc, char** argv) {
  ccforge::cli::SynthArguments args;
  args.method = "trees";
  int positional = 0;
  for (int i = 1; i < argc; ++i) {
    const std::string_view a = argv[i];
    const bool hasValue = i + 1 < argc;
    if (a == "-o" && hasValue) {
      args.outputDir = argv[++i];
    } else if (a == "--format" && hasValue) {
      args.format = argv[++i];
    } else if (a == "--composition" && hasValue) {
      args.composition = argv[++i];
    } else if (a == "--timeout" && hasValue) {
      args.timeoutSeconds = std::stod(argv[++i]);
    } else if (positional == 0 && !a.starts_with("-")) {
      args.topology = a;
      ++positional;
    } else if (positional == 1 && !a.starts_with("-")) {
      args.collective = a;
      ++positional;
    } else {
      std::cerr << "usage: synth_trees_driver TOPOLOGY COLLECTIVE [-o DIR] [--format text|json] [--composition auto|trees|hierarchical] [--timeout S]\n";
      return ccforge::kExitUsage;
    }
  }
  if (positional != 2) {
    std::cerr << "usage: synth_trees_driver TOPOLOGY COLLECTIVE [-o DIR] [--format text|json] [--composition auto|trees|hierarchical] [--timeout S]\n";
    return ccforge::kExitUsage;
  }
  return ccforge::cli::runTreeSynthesis(args);
}
