// Runs an msccl-tools-style MSCCLang script (python/msccl, docs/python.md) in an embedded
// CPython and hands back the programs it built. The interpreter is embedded rather than a
// `python3` child process: the libraries need no position-independent rebuild for an extension
// module, the script sees the C++ DSL directly, and the result (programs, or a located error)
// comes back as data instead of through files and exit codes.
#pragma once

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "python/session.hpp"

namespace ccforge::python {

struct ScriptRequest {
  std::filesystem::path script;
  std::vector<std::string> args;  // the script's own command line (sys.argv[1:])
};

enum class ScriptStatus {
  Finished,      // ran to the end (or sys.exit(0))
  ProgramWrong,  // a DSL misuse or a failed Check(): error names the script's file:line
  ScriptFailed,  // the script does not run: an exception of its own, an unsupported call, argparse
  Exited,        // sys.exit(N) with N != 0 (argparse's usage errors included): exitCode
};

struct ScriptResult {
  ScriptStatus status = ScriptStatus::Finished;
  int exitCode = 0;
  std::string error;  // "FILE:LINE:COL: error: message" lines
  std::vector<EmittedProgram> emitted;
  std::shared_ptr<dsl::Program> lastCreated;
};

// Where the python/msccl package is: $CCFORGE_PYTHON_DIR, the build tree's copy, the installed one.
std::optional<std::filesystem::path> packageDirectory();

// Runs the script once per process (CPython is initialised on the first call). Throws
// std::runtime_error when the package cannot be found or the interpreter does not start.
ScriptResult runScript(const ScriptRequest& request);

}  // namespace ccforge::python
