// Programs as bytes, to cross from one process to another: each program as its trace. The
// receiving side rebuilds every program by replaying its trace through the DSL's own calls, so
// every misuse check runs again there: bytes the sending process forged are refused, or become a
// program that is compiled and verified like any other. The Python front end sends a script's
// programs this way out of its sandbox (python/script_sandbox.cpp), with its status and message.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "dsl/program.hpp"

namespace ccforge::dsl {

struct ProgramTransfer {
  uint8_t status = 0;   // the sender's, carried as it is
  std::string message;  // the sender's, carried as it is
  std::vector<std::shared_ptr<Program>> programs;
  std::vector<std::pair<size_t, SourcePos>> marked;  // (program number, position), in order
  int64_t last = -1;                                 // a program number, or -1
};

struct TransferError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

std::string encodePrograms(const ProgramTransfer& transfer);

// `keepFileName` returns a copy of a source position's file name that outlives the programs
// (SourcePos does not own it). Throws TransferError for bytes that are not a whole transfer, and
// DslError or std::invalid_argument, as the DSL does, for a program the DSL refuses.
ProgramTransfer decodePrograms(std::string_view bytes,
                               const std::function<const char*(const std::string&)>& keepFileName);

}  // namespace ccforge::dsl
