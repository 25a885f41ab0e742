#include "runtime/program_set.hpp"

#include <algorithm>

#include "runtime/names.hpp"

namespace ccforge::runtime {

std::string Selection::summary() const {
  std::string s;
  for (const std::string& r : reasons) {
    if (!s.empty()) s += "\n";
    s += r;
  }
  return s;
}

std::string mismatch(const ExecutableProgram& p, const CallShape& call) {
  if (p.collective() != call.collective)
    return "it is a " + std::string(collectiveTypeName(p.collective())) + " program, the call is " +
           std::string(collectiveTypeName(call.collective));
  if (p.ranks() != call.ranks)
    return "it is for " + std::to_string(p.ranks()) + " ranks, the call has " + std::to_string(call.ranks);
  if (!p.serves(call.form)) return "it does not serve " + std::string(callFormName(call.form)) + " calls";
  if (reduces(call.collective) && !interpreterSupports(call.op))
    return "op " + std::string(reduceOpName(call.op)) + " is not supported by the interpreter (sum, prod, min, max)";
  const int64_t total = call.count * sizeMultiplier(call.collective, call.ranks);
  if (total % p.chunksPerLoop() != 0)
    return "count " + std::to_string(call.count) +
           (total != call.count ? " x " + std::to_string(call.ranks) + " ranks" : "") +
           " is not a multiple of nchunksperloop " + std::to_string(p.chunksPerLoop());
  const int64_t bytes = totalBytes(call);
  const semantics::SizeWindow window = p.sizeWindow();
  if (!window.contains(static_cast<uint64_t>(bytes)))
    return std::to_string(bytes) + " bytes is outside its size window [" + std::to_string(window.minBytes) + ", " +
           (window.maxBytes ? std::to_string(*window.maxBytes) : std::string("unbounded")) + "]";
  return "";
}

void ProgramSet::add(ExecutableProgram program) {
  auto at = std::upper_bound(programs_.begin(), programs_.end(), program.source(),
                             [](const std::string& s, const ExecutableProgram& p) { return s < p.source(); });
  programs_.insert(at, std::move(program));
}

Selection ProgramSet::select(const CallShape& call) const {
  Selection s;
  for (const ExecutableProgram& p : programs_) {
    std::string why = mismatch(p, call);
    if (why.empty()) {
      s.program = &p;
      return s;
    }
    s.reasons.push_back(p.source() + ": " + why);
  }
  if (programs_.empty()) s.reasons.push_back("no programs are loaded");
  return s;
}

}  // namespace ccforge::runtime
