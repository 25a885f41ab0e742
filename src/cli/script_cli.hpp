// `ccforge compile|dot SCRIPT.py [ARGS...]`: the command-line side of the Python front end
// (docs/python.md). Arguments after the script belong to it, except the command's own options
// (as registered), which may appear anywhere; everything after `--` goes to the script verbatim.
#pragma once

#include <CLI/CLI.hpp>

#include <iostream>
#include <map>
#include <string>
#include <variant>
#include <vector>

#include "cli/exit_codes.hpp"
#include "cli/option_checks.hpp"
#include "python/script_programs.hpp"

namespace ccforge::cli {

// The option group of `compile` and `dot` whose options belong to library algorithms only: after
// a script, the script's own (msccl-tools' scripts take --protocol themselves).
inline constexpr const char* kLibraryOnlyOptions = "Library algorithms only";

// The named options of a registered command that a script's command line may carry anywhere, and
// whether each takes a value ("-o" true, "--no-verify" false), read from CLI11 so that the list
// cannot fall behind the command. Not -h/--help (a script's own) nor the library-only group's
// options (option groups are CLI11 subcommands, not listed among the command's options).
inline std::map<std::string, bool> namedOptions(const CLI::App& command) {
  std::map<std::string, bool> out;
  for (const CLI::Option* o : command.get_options()) {
    if (!o->nonpositional() || o == command.get_help_ptr()) continue;
    const bool takesValue = o->get_type_size() != 0;
    for (const std::string& s : o->get_snames()) out["-" + s] = takesValue;
    for (const std::string& l : o->get_lnames()) out["--" + l] = takesValue;
  }
  return out;
}

// Rewrites `ccforge CMD SCRIPT.py a --x y -o f` to `ccforge CMD -o f -- SCRIPT.py a --x y`, so that
// CLI11 hands the script's arguments over untouched: the command's own options (as `app`
// registers them) may appear anywhere. Other command lines are returned as they are.
inline std::vector<std::string> scriptArgumentOrder(const CLI::App& app, int argc, char** argv) {
  std::vector<std::string> in(argv, argv + argc);
  if (in.size() < 3 || (in[1] != "compile" && in[1] != "dot")) return in;
  const std::map<std::string, bool> options = namedOptions(*app.get_subcommand(in[1]));
  size_t script = 0;
  for (size_t i = 2; i < in.size(); ++i) {
    const std::string& a = in[i];
    if (a == "--") break;
    const std::string name = a.substr(0, a.find('='));
    if (auto o = options.find(name); o != options.end()) {
      if (o->second && a.find('=') == std::string::npos) ++i;
      continue;
    }
    if (!a.starts_with("-")) {
      if (python::isScript(a)) script = i;
      break;
    }
  }
  if (script == 0) return in;
  std::vector<std::string> mine(in.begin(), in.begin() + 2), theirs{in[script]};
  for (size_t i = 2; i < in.size(); ++i) {
    if (i == script) continue;
    const std::string& a = in[i];
    if (a == "--" && i > script) {
      theirs.insert(theirs.end(), in.begin() + static_cast<std::ptrdiff_t>(i) + 1, in.end());
      break;
    }
    const std::string name = a.substr(0, a.find('='));
    if (auto o = options.find(name); o != options.end()) {
      mine.push_back(a);
      if (o->second && a.find('=') == std::string::npos && i + 1 < in.size()) mine.push_back(in[++i]);
      continue;
    }
    (i < script ? mine : theirs).push_back(a);
  }
  mine.push_back("--");
  mine.insert(mine.end(), theirs.begin(), theirs.end());
  return mine;
}

// The programs of the script (python/script_programs.hpp), or the exit code of what went wrong,
// its messages printed.
inline std::variant<std::vector<python::ScriptProgram>, int> programsOfScript(const std::string& tool,
                                                                              const std::string& script,
                                                                              const std::vector<std::string>& args,
                                                                              const python::ScriptLimits& limits,
                                                                              bool anyProgram) {
  python::ScriptPrograms result;
  try {
    result = python::programsOfScript(script, args, limits, anyProgram);
  } catch (const std::exception& e) {
    std::cerr << tool << ": " << e.what() << "\n";
    return kExitInternalError;
  }
  std::cerr << result.messages;
  switch (result.outcome) {
    case python::ScriptOutcome::Programs: return std::move(result.programs);
    case python::ScriptOutcome::ProgramWrong: return kExitViolation;
    case python::ScriptOutcome::Unreadable:
    case python::ScriptOutcome::ScriptFailed:
    case python::ScriptOutcome::Forged:
    case python::ScriptOutcome::NoProgram: break;
  }
  return kExitMalformedInput;
}

// The limits of a script's sandbox as options of `compile` and `dot` (docs/python.md, "Scripts run
// in a sandbox"). On the command itself, not in a group, so that they may follow the script.
inline void addScriptLimitOptions(CLI::App& command, python::ScriptLimits& limits) {
  command.add_option("--script-cpu", limits.cpuSeconds, "CPU seconds a script may use (default 600)")
      ->check(CLI::Range(1u, 86400u));
  command.add_option("--script-wall", limits.wallSeconds, "seconds a script may run (default 1200)")
      ->check(CLI::Range(1u, 86400u));
  command
      .add_option("--script-memory", limits.memoryBytes,
                  "address space of a script's process, ccforge's own libraries included (default 16GiB)")
      ->transform(byteSize(uint64_t{1} << 30, uint64_t{1} << 40));
  command
      .add_option("--script-output", limits.outputBytes,
                  "bytes a script may print, and the size of each file in its temporary directory (default 16MiB)")
      ->transform(byteSize(0, uint64_t{1} << 40));
}

}  // namespace ccforge::cli
