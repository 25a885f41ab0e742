// Helpers shared by the topology commands (topo, bounds, simulate, synth): their common
// arguments, how their failures map to exit codes, and writing to stdout or a file.
#pragma once

#include <CLI/CLI.hpp>

#include <filesystem>
#include <iostream>
#include <stdexcept>
#include <string>
#include <string_view>

#include "cli/exit_codes.hpp"
#include "base/input_error.hpp"
#include "base/output_file.hpp"

namespace ccforge::cli {

inline void addTopologyArgument(CLI::App* cmd, std::string& topology) {
  cmd->add_option("topology", topology, "catalog name (e.g. dgx1) or path to a spec file")->required();
}

inline void addTextOrJsonFormat(CLI::App* cmd, std::string& format) {
  cmd->add_option("--format", format, "text or json")->check(CLI::IsMember({"text", "json"}))->capture_default_str();
}

// Unusable input (a spec, an IR file, a disconnected topology) exits 2; a nonsensical
// request (unknown collective, root out of range, a request over a limit of docs/limits.md)
// and an output that cannot be written exit 1.
template <typename Body>
int runGuarded(std::string_view command, Body&& body) {
  try {
    return body();
  } catch (const base::InputError& e) {
    std::cerr << e.diagnostic() << "\n";
    return kExitMalformedInput;
  } catch (const std::invalid_argument& e) {
    std::cerr << "ccforge " << command << ": " << e.what() << "\n";
    return kExitUsage;
  } catch (const base::OutputError& e) {
    std::cerr << "ccforge " << command << ": " << e.what() << "\n";
    return kExitUsage;
  } catch (const std::overflow_error& e) {  // exact arithmetic past 64 bits: the input's numbers
    std::cerr << "ccforge " << command << ": " << e.what() << " (docs/limits.md)\n";
    return kExitMalformedInput;
  } catch (const std::filesystem::filesystem_error& e) {
    std::cerr << "ccforge " << command << ": " << e.what() << "\n";
    return kExitUsage;
  }
}

// Writes `text` to `path` (never leaving a partial file), or to stdout when `path` is empty.
inline int writeOutput(std::string_view command, const std::string& path, const std::string& text) {
  if (path.empty()) {
    std::cout << text << std::flush;
    if (std::cout) return kExitVerified;
    std::cerr << "ccforge " << command << ": cannot write to standard output\n";
    return kExitUsage;
  }
  try {
    base::writeOutputFile(path, text);
  } catch (const base::OutputError& e) {
    std::cerr << "ccforge " << command << ": " << e.what() << "\n";
    return kExitUsage;
  }
  return kExitVerified;
}

}  // namespace ccforge::cli
