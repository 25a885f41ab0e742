#include "python/script_runner.hpp"

#include <pybind11/embed.h>
#include <pybind11/stl.h>

#include <cstdlib>
#include <set>
#include <stdexcept>

namespace py = pybind11;

namespace ccforge::python {

void linkBindings();  // bindings.cpp

Session& Session::current() {
  static Session session;
  return session;
}

const char* Session::intern(const std::string& file) {
  static std::set<std::string> names;
  return names.insert(file).first->c_str();
}

std::optional<std::filesystem::path> packageDirectory() {
  std::vector<std::filesystem::path> candidates;
  if (const char* dir = std::getenv("CCFORGE_PYTHON_DIR"); dir != nullptr && *dir != '\0') candidates.emplace_back(dir);
  candidates.emplace_back(CCFORGE_PYTHON_BUILD_DIR);
  candidates.emplace_back(CCFORGE_PYTHON_INSTALL_DIR);
  for (const auto& c : candidates) {
    std::error_code ec;
    if (std::filesystem::exists(c / "msccl" / "_runner.py", ec)) return c;
  }
  return std::nullopt;
}

ScriptResult runScript(const ScriptRequest& request) {
  linkBindings();
  const auto package = packageDirectory();
  if (!package)
    throw std::runtime_error(std::string("cannot find the Python package msccl (looked in $CCFORGE_PYTHON_DIR, ") +
                             CCFORGE_PYTHON_BUILD_DIR + ", " + CCFORGE_PYTHON_INSTALL_DIR + ")");
  Session::current().clear();
  ScriptResult result;
  {
    // The script's own argv; site packages of Debian's python3 stay importable.
    py::scoped_interpreter interpreter(true, 0, nullptr, false);
    try {
      py::module_ sys = py::module_::import("sys");
      py::list path = sys.attr("path");
      path.insert(0, package->string());
      py::module_ runner = py::module_::import("msccl._runner");
      py::tuple outcome = runner.attr("run")(request.script.string(), request.args, request.limits.cpuSeconds,
                                             request.limits.wallSeconds, request.limits.memoryBytes);
      const std::string status = outcome[0].cast<std::string>();
      result.error = outcome[1].cast<std::string>();
      result.status = status == "finished" ? ScriptStatus::Finished
                      : status == "wrong"  ? ScriptStatus::ProgramWrong
                                           : ScriptStatus::ScriptFailed;
    } catch (const py::error_already_set& e) {
      // Only the runner itself can get here (it catches everything the script raises).
      throw std::runtime_error(std::string("the Python front end failed: ") + e.what());
    }
    result.emitted = Session::current().emitted();
    result.lastCreated = Session::current().lastCreated();
    Session::current().clear();
  }
  return result;
}

}  // namespace ccforge::python
