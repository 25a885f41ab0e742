// A set of loaded programs and the selection rule of the MSCCL runtime (msccl-ir.md §2
// "Selection and fallback"): the first program, in order of source name, whose collective, rank
// count and call form match, whose nchunksperloop divides count*m, whose size window holds the
// call's bytes, and which the op can run on. Otherwise the call falls back.
#pragma once

#include <string>
#include <vector>

#include "runtime/call.hpp"
#include "runtime/program.hpp"

namespace ccforge::runtime {

struct Selection {
  const ExecutableProgram* program = nullptr;  // nullptr: fall back
  std::vector<std::string> reasons;            // why each program was passed over ("source: reason")
  std::string summary() const;                 // the reasons on one line each
};

// Why `program` cannot serve `call`; empty when it can.
std::string mismatch(const ExecutableProgram& program, const CallShape& call);

class ProgramSet {
 public:
  void add(ExecutableProgram program);
  const std::vector<ExecutableProgram>& programs() const { return programs_; }
  bool empty() const { return programs_.empty(); }
  Selection select(const CallShape& call) const;

 private:
  std::vector<ExecutableProgram> programs_;  // sorted by source
};

}  // namespace ccforge::runtime
