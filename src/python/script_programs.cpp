#include "python/script_programs.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <stdexcept>

#include "dsl/dsl_error.hpp"
#include "python/script_sandbox.hpp"
#include "semantics/collective.hpp"

namespace ccforge::python {
namespace {

ScriptPrograms failed(ScriptOutcome outcome, std::string messages) {
  ScriptPrograms out;
  out.outcome = outcome;
  out.messages = std::move(messages);
  return out;
}

ScriptPrograms forged(const std::string& script, const std::exception& e) {
  return failed(ScriptOutcome::Forged,
                script + ":1:1: error: the script's result is not a program ccforge can build: " + e.what() + "\n");
}

ScriptResult runInSandbox(const std::string& script, const std::vector<std::string>& args, const ScriptLimits& limits) {
  if (!isSccl(script)) return runScriptInSandbox({script, args, limits});
  const auto package = packageDirectory();
  if (!package) throw std::runtime_error("cannot find the Python package msccl (its SCCL importer)");
  std::vector<std::string> importArgs{script};
  importArgs.insert(importArgs.end(), args.begin(), args.end());
  return runScriptInSandbox({*package / "msccl" / "_sccl_import.py", importArgs, limits});
}

}  // namespace

ScriptPrograms programsOfScript(const std::string& script, const std::vector<std::string>& args,
                                const ScriptLimits& limits, bool anyProgram) {
  // Checked here, not by the script runner: a missing SCCL file would otherwise fail inside the
  // importer, whose exit status does not say "unreadable input".
  if (std::ifstream probe(script); !probe)
    return failed(ScriptOutcome::Unreadable,
                  script + ":1:1: error: cannot read " + script + ": " + std::strerror(errno) + "\n");
  ScriptResult result;
  try {
    result = runInSandbox(script, args, limits);
  } catch (const dsl::DslError& e) {
    return forged(script, e);
  } catch (const std::invalid_argument& e) {
    return forged(script, e);
  }
  ScriptPrograms out;
  if (!result.error.empty()) out.messages = result.error + "\n";
  switch (result.status) {
    case ScriptStatus::ProgramWrong: out.outcome = ScriptOutcome::ProgramWrong; return out;
    case ScriptStatus::ScriptFailed: out.outcome = ScriptOutcome::ScriptFailed; return out;
    case ScriptStatus::Finished: break;
  }
  std::string title = script;
  for (const std::string& a : args) title += " " + a;
  for (const EmittedProgram& e : result.emitted) out.programs.push_back(ScriptProgram{e.program, e.at, title});
  if (anyProgram && out.programs.size() > 1) out.programs.erase(out.programs.begin(), out.programs.end() - 1);
  if (anyProgram && out.programs.empty() && result.lastCreated)
    out.programs.push_back(ScriptProgram{result.lastCreated, {}, title});
  if (out.programs.empty()) {
    out.outcome = ScriptOutcome::NoProgram;
    out.messages += script +
                    ":1:1: error: the script built no program to write (it never called XML() inside "
                    "`with MSCCLProgram(...)`)\n";
  }
  return out;
}

std::string defaultScriptProfile(const dsl::Program& program) {
  if (program.binding().product) return "ccforge-fused";
  return irKindOf(program.binding().type) == ir::CollectiveKind::Custom ? "msccl-legacy" : "msccl-executor";
}

std::string nthOutput(const std::string& output, size_t n) {
  if (n == 0 || output.empty()) return output;
  const size_t slash = output.find_last_of('/');
  const size_t dot = output.find_last_of('.');
  const bool hasExtension = dot != std::string::npos && (slash == std::string::npos || dot > slash);
  const std::string suffix = "." + std::to_string(n + 1);
  return hasExtension ? output.substr(0, dot) + suffix + output.substr(dot) : output + suffix;
}

std::string scriptLocation(const ScriptProgram& p, const std::string& script) {
  if (p.at.line() == 0) return script + ":1:1: error: ";
  return std::string(p.at.file_name()) + ":" + std::to_string(p.at.line()) + ":" +
         std::to_string(p.at.column() ? p.at.column() : 1) + ": error: ";
}

}  // namespace ccforge::python
