// `ccforge compile|dot SCRIPT.py [ARGS...]`: the command-line side of the Python front end
// (docs/python.md). Arguments after the script belong to it, except the command's own options
// (listed below), which may appear anywhere; everything after `--` goes to the script verbatim.
#pragma once

#include <iostream>
#include <map>
#include <memory>
#include <string>
#include <variant>
#include <vector>

#include "cli/exit_codes.hpp"
#include "python/script_runner.hpp"

namespace ccforge::cli {

inline bool isScript(const std::string& input) { return input.ends_with(".py"); }

// Rewrites `ccforge CMD SCRIPT.py a --x y -o f` to `ccforge CMD -o f -- SCRIPT.py a --x y`, so that
// CLI11 hands the script's arguments over untouched. Other command lines are returned as they are.
inline std::vector<std::string> scriptArgumentOrder(int argc, char** argv) {
  std::vector<std::string> in(argv, argv + argc);
  if (in.size() < 3 || (in[1] != "compile" && in[1] != "dot")) return in;
  // The command's own options and whether they take a value.
  static const std::map<std::string, std::map<std::string, bool>> own = {
      {"compile", {{"-o", true}, {"--output", true}, {"--profile", true}, {"--max-tbs", true}, {"--no-verify", false}}},
      {"dot",
       {{"-o", true}, {"--output", true}, {"--view", true}, {"--profile", true}, {"--rank", true}, {"--chunk", true},
        {"--around", true}, {"--radius", true}, {"--max-nodes", true}, {"--highlight", true}, {"--verify", false}}}};
  const auto& options = own.at(in[1]);
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

// Runs the script and picks the program it asked to be written (XML()); `anyProgram` also takes
// the last one it built (ccforge dot). Prints what went wrong and returns the exit code otherwise.
inline std::variant<ScriptProgram, int> programOfScript(const std::string& tool, const std::string& script,
                                                       const std::vector<std::string>& args, bool anyProgram) {
  python::ScriptResult result;
  try {
    result = python::runScript({script, args});
  } catch (const std::exception& e) {
    std::cerr << tool << ": " << e.what() << "\n";
    return kExitInternalError;
  }
  if (!result.error.empty()) std::cerr << result.error << "\n";
  switch (result.status) {
    case python::ScriptStatus::ProgramWrong: return kExitViolation;
    case python::ScriptStatus::ScriptFailed: return kExitMalformedInput;
    case python::ScriptStatus::Exited: return result.exitCode;
    case python::ScriptStatus::Finished: break;
  }
  std::string title = script;
  for (const std::string& a : args) title += " " + a;
  if (result.emitted.size() > 1 && !anyProgram) {
    std::cerr << script << ":1:1: error: the script called XML() " << result.emitted.size()
              << " times; " << tool << " writes one program per run\n";
    return kExitUsage;
  }
  if (!result.emitted.empty()) return ScriptProgram{result.emitted.back().program, result.emitted.back().at, title};
  if (anyProgram && result.lastCreated) return ScriptProgram{result.lastCreated, {}, title};
  std::cerr << script << ":1:1: error: the script built no program to write (it never called XML() inside "
            << "`with MSCCLProgram(...)`)\n";
  return kExitMalformedInput;
}

// "FILE:LINE:COL: error: " for messages about the program the script emitted.
inline std::string scriptLocation(const ScriptProgram& p, const std::string& script) {
  if (p.at.line == 0) return script + ":1:1: error: ";
  return std::string(p.at.file) + ":" + std::to_string(p.at.line) + ":" + std::to_string(p.at.column ? p.at.column : 1) +
         ": error: ";
}

}  // namespace ccforge::cli
