// `ccforge compile|dot SCRIPT.py [ARGS...]`: the command-line side of the Python front end
// (docs/python.md). Arguments after the script belong to it, except the command's own options
// (as registered), which may appear anywhere; everything after `--` goes to the script verbatim.
#pragma once

#include <CLI/CLI.hpp>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <variant>
#include <vector>

#include "cli/exit_codes.hpp"
#include "cli/option_checks.hpp"
#include "dsl/dsl_error.hpp"
#include "python/script_sandbox.hpp"
#include "semantics/collective.hpp"

namespace ccforge::cli {

// An MSCCLang script, or an algorithm SCCL synthesized (`msccl solve ... -o ALGO.json`), which the
// front end's importer (python/msccl/_sccl_import.py) lowers to a program.
inline bool isSccl(const std::string& input) { return input.ends_with(".json"); }
inline bool isScript(const std::string& input) { return input.ends_with(".py") || isSccl(input); }

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
      if (isScript(a)) script = i;
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

struct ScriptProgram {
  std::shared_ptr<dsl::Program> program;
  dsl::SourcePos at;  // XML(), or the line 1 of the script when it never called XML()
  std::string title;  // "script.py arg ..."
};

// The profile a script's program compiles for when --profile is not given: msccl-executor, as for
// the library (msccl-tools' own header lacks the minBytes and maxBytes the executor's parser
// requires); msccl-legacy for a custom collective, which only that runtime runs; ccforge-fused for a
// fused program (MSCCLProgram(product=...)).
inline std::string defaultScriptProfile(const dsl::Program& program) {
  if (program.binding().product) return "ccforge-fused";
  return irKindOf(program.binding().type) == ir::CollectiveKind::Custom ? "msccl-legacy" : "msccl-executor";
}

// A program the script handed back that does not replay through the DSL (a forged result).
inline int refuseForgedProgram(const std::string& script, const std::exception& e) {
  std::cerr << script << ":1:1: error: the script's result is not a program ccforge can build: " << e.what() << "\n";
  return kExitMalformedInput;
}

// Runs the script and returns the programs it asked to be written (XML(), in order); `anyProgram`
// (ccforge dot) takes the last of them, or else the last one it built. Prints what went wrong
// and returns the exit code otherwise.
inline std::variant<std::vector<ScriptProgram>, int> programsOfScript(const std::string& tool,
                                                                      const std::string& script,
                                                                      const std::vector<std::string>& args,
                                                                      const python::ScriptLimits& limits,
                                                                      bool anyProgram) {
  // Checked here, not by the script runner: a missing SCCL file would otherwise fail inside the
  // importer, whose exit status does not say "unreadable input".
  if (std::ifstream probe(script); !probe) {
    std::cerr << script << ":1:1: error: cannot read " << script << ": " << std::strerror(errno) << "\n";
    return kExitMalformedInput;
  }
  python::ScriptResult result;
  try {
    if (isSccl(script)) {
      const auto package = python::packageDirectory();
      if (!package) throw std::runtime_error("cannot find the Python package msccl (its SCCL importer)");
      std::vector<std::string> importArgs{script};
      importArgs.insert(importArgs.end(), args.begin(), args.end());
      result = python::runScriptInSandbox({*package / "msccl" / "_sccl_import.py", importArgs, limits});
    } else {
      result = python::runScriptInSandbox({script, args, limits});
    }
  } catch (const dsl::DslError& e) {
    return refuseForgedProgram(script, e);
  } catch (const std::invalid_argument& e) {
    return refuseForgedProgram(script, e);
  } catch (const std::exception& e) {
    std::cerr << tool << ": " << e.what() << "\n";
    return kExitInternalError;
  }
  if (!result.error.empty()) std::cerr << result.error << "\n";
  switch (result.status) {
    case python::ScriptStatus::ProgramWrong: return kExitViolation;
    case python::ScriptStatus::ScriptFailed: return kExitMalformedInput;
    case python::ScriptStatus::Finished: break;
  }
  std::string title = script;
  for (const std::string& a : args) title += " " + a;
  std::vector<ScriptProgram> programs;
  for (const python::EmittedProgram& e : result.emitted) programs.push_back(ScriptProgram{e.program, e.at, title});
  if (anyProgram && programs.size() > 1) programs.erase(programs.begin(), programs.end() - 1);
  if (!programs.empty()) return programs;
  if (anyProgram && result.lastCreated) return std::vector<ScriptProgram>{ScriptProgram{result.lastCreated, {}, title}};
  std::cerr << script << ":1:1: error: the script built no program to write (it never called XML() inside "
            << "`with MSCCLProgram(...)`)\n";
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

// Where the n-th (0-based) program of a script goes: `output` for the first, STEM.N.EXT after it.
inline std::string nthOutput(const std::string& output, size_t n) {
  if (n == 0 || output.empty()) return output;
  const size_t slash = output.find_last_of('/');
  const size_t dot = output.find_last_of('.');
  const bool hasExtension = dot != std::string::npos && (slash == std::string::npos || dot > slash);
  const std::string suffix = "." + std::to_string(n + 1);
  return hasExtension ? output.substr(0, dot) + suffix + output.substr(dot) : output + suffix;
}

// "FILE:LINE:COL: error: " for messages about the program the script emitted.
inline std::string scriptLocation(const ScriptProgram& p, const std::string& script) {
  if (p.at.line() == 0) return script + ":1:1: error: ";
  return std::string(p.at.file_name()) + ":" + std::to_string(p.at.line()) + ":" +
         std::to_string(p.at.column() ? p.at.column() : 1) + ": error: ";
}

}  // namespace ccforge::cli
