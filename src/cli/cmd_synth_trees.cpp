// Spanning-tree packing for multi-box topologies. Being built: until it lands, the method
// refuses to run rather than pretend.
#include <iostream>

#include "cli/exit_codes.hpp"
#include "cli/synth_arguments.hpp"

namespace ccforge::cli {

int runTreeSynthesis(const SynthArguments& args) {
  std::cerr << "ccforge synth: " << args.topology << ": tree packing is not available yet\n";
  return kExitUsage;
}

}  // namespace ccforge::cli
