// Runs an msccl-tools-style MSCCLang script (python/msccl, docs/python.md) in an embedded
// CPython and hands back the programs it built. The interpreter is embedded (in the sandbox's
// child process) rather than a `python3` executable: the libraries need no position-independent
// rebuild for an extension module, the script sees the C++ DSL directly, and the result
// (programs, or a located error) comes back as data instead of through files and exit codes.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "python/session.hpp"

namespace ccforge::python {

// What a script may use (docs/python.md, "Scripts run in a sandbox"); script_sandbox.cpp enforces
// them, and the runner turns the first two into an exception at the script's current line.
struct ScriptLimits {
  uint32_t cpuSeconds = 600;
  uint32_t wallSeconds = 1200;
  uint64_t memoryBytes = uint64_t{16} << 30;  // address space
  uint64_t outputBytes = uint64_t{16} << 20;  // what it prints, and each file in its temporary directory
};

struct ScriptRequest {
  std::filesystem::path script;
  std::vector<std::string> args;  // the script's own command line (sys.argv[1:])
  ScriptLimits limits;
};

enum class ScriptStatus : uint8_t {
  Finished,      // ran to the end (or sys.exit(0))
  ProgramWrong,  // a DSL misuse or a failed Check(): error names the script's file:line
  ScriptFailed,  // the script does not run: an exception of any class, sys.exit(N != 0) (argparse's
                 // usage errors included), an unsupported call, a sandbox limit, a signal
};

struct ScriptResult {
  ScriptStatus status = ScriptStatus::Finished;
  std::string error;  // "FILE:LINE:COL: error: message" lines
  std::vector<EmittedProgram> emitted;
  std::shared_ptr<dsl::Program> lastCreated;
};

// Where the python/msccl package is: $CCFORGE_PYTHON_DIR, the build tree's copy, the installed one.
std::optional<std::filesystem::path> packageDirectory();

// Runs the script in this process, once per process (CPython is initialised on the first call):
// the sandbox's child calls it (script_sandbox.hpp runs a script from ccforge). Throws
// std::runtime_error when the package cannot be found or the interpreter does not start.
ScriptResult runScript(const ScriptRequest& request);

}  // namespace ccforge::python
