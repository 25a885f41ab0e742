// A script on `compile` and `dot`'s command line, run in its sandbox (script_sandbox.hpp), and the
// programs it asked to be written: an MSCCLang script, or an algorithm SCCL synthesized (`msccl
// solve ... -o ALGO.json`), which the package's importer (python/msccl/_sccl_import.py) lowers to
// a program. The outcome says what went wrong, its messages are located ("FILE:LINE:COL: error:").
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "dsl/program.hpp"
#include "python/script_runner.hpp"

namespace ccforge::python {

inline bool isSccl(const std::string& input) { return input.ends_with(".json"); }
inline bool isScript(const std::string& input) { return input.ends_with(".py") || isSccl(input); }

struct ScriptProgram {
  std::shared_ptr<dsl::Program> program;
  dsl::SourcePos at;  // XML(), or the line 1 of the script when it never called XML()
  std::string title;  // "script.py arg ..."
};

enum class ScriptOutcome : uint8_t {
  Programs,      // `programs` holds at least one
  Unreadable,    // the script (or SCCL file) cannot be read
  ScriptFailed,  // it does not run (an exception, sys.exit(N != 0), a sandbox limit)
  ProgramWrong,  // a DSL misuse or a failed Check()
  Forged,        // its result does not replay through the DSL
  NoProgram,     // it ran and built nothing to write
};

struct ScriptPrograms {
  ScriptOutcome outcome = ScriptOutcome::Programs;
  std::string messages;  // lines to show the user, whatever the outcome
  std::vector<ScriptProgram> programs;
};

// The programs the script asked to be written (XML(), in order); with `anyProgram` (`dot`), only
// the last of them, or else the last one it built. Throws std::runtime_error when no sandbox can
// be started or the package is missing.
ScriptPrograms programsOfScript(const std::string& script, const std::vector<std::string>& args,
                                const ScriptLimits& limits, bool anyProgram);

// The profile a script's program compiles for when none is given: msccl-executor, as for the
// library (msccl-tools' own header lacks the minBytes and maxBytes the executor's parser
// requires); msccl-legacy for a custom collective, which only that runtime runs; ccforge-fused for
// a fused program (MSCCLProgram(product=...)).
std::string defaultScriptProfile(const dsl::Program& program);

// Where the n-th (0-based) program of a script goes: `output` for the first, STEM.N.EXT after it.
std::string nthOutput(const std::string& output, size_t n);

// "FILE:LINE:COL: error: " for messages about a program the script emitted.
std::string scriptLocation(const ScriptProgram& p, const std::string& script);

}  // namespace ccforge::python
