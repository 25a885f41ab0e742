// Runs a script (script_runner.hpp) in a child process that cannot harm ccforge or the machine
// (docs/python.md, "Scripts run in a sandbox"):
// - limits: CPU time, wall-clock time, address space, output (what it prints, and each file);
// - no network: a network namespace of its own, or where the kernel refuses one, Landlock's TCP rules;
// - the file system read-only except a temporary directory of its own (Landlock), which is removed
//   afterwards;
// - no signal reaches ccforge or another process (a PID namespace, or Landlock's signal scope);
// - the result comes back as data that ccforge checks again (dsl/program_transfer.hpp).
// Whatever the kernel does not offer is left out (older kernels lack parts of Landlock); the
// limits hold everywhere. However the script ends, the result is a ScriptResult with a located
// error.
#pragma once

#include "python/script_runner.hpp"

namespace ccforge::python {

// Throws std::runtime_error when no child process can be started.
ScriptResult runScriptInSandbox(const ScriptRequest& request);

}  // namespace ccforge::python
