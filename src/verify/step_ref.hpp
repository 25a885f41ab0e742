// A step of a loaded program as reports name it: (rank, tb, step[, tile]) with its location.
#pragma once

#include <cstdint>
#include <string>

#include "semantics/loaded_program.hpp"
#include "verify/report.hpp"

namespace ccforge::verify {

inline StepRef stepRef(const semantics::LoadedProgram& program, uint32_t s, std::string role = {}, int32_t tile = -1) {
  const int32_t tb = program.tbOfStep(s);
  return StepRef{program.rankOf(tb),    program.idOf(tb), program.indexInTb(s), tile,
                 program.step(s).where, std::move(role)};
}

}  // namespace ccforge::verify
