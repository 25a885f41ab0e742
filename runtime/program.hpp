// A program the runtime can execute: an MSCCL-IR algorithm loaded as the MSCCL executor's parser
// loads it (semantics/loaded_program.hpp: fused reduction chains, nop dependencies, flag step
// numbers), checked for what execution needs (every access in bounds, one writer and one reader
// per FIFO), and flattened into the tables the interpreter core reads (runtime/core/program_tables.hpp).
// These checks always run; the semantic verification (races, postcondition, deadlock) is the
// loader's job (runtime/loader.hpp) and can be disabled.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "runtime/core/program_tables.hpp"
#include "semantics/collective.hpp"
#include "semantics/runtime_profile.hpp"
#include "base/input_error.hpp"
#include "ir/model.hpp"

namespace ccforge::runtime {

// The algorithm cannot run on this runtime. `unsupported()` distinguishes "valid but not
// something the runtime runs" (a custom collective) from "would corrupt memory or FIFOs".
class ProgramRejected : public base::InputError {
 public:
  ProgramRejected(std::string file, base::TextLocation where, const std::string& message, bool unsupported)
      : base::InputError(std::move(file), where, message), unsupported_(unsupported) {}
  bool unsupported() const { return unsupported_; }

 private:
  bool unsupported_;
};

class ExecutableProgram {
 public:
  // Throws ProgramRejected naming (rank, tb, step) and the file location.
  static ExecutableProgram compile(ir::Algorithm algorithm, std::string source);

  const ir::Algorithm& algorithm() const { return algorithm_; }
  const std::string& source() const { return source_; }
  semantics::CollectiveType collective() const { return collective_; }
  int32_t ranks() const { return algorithm_.ngpus; }
  int32_t chunksPerLoop() const { return algorithm_.nchunksperloop; }
  ir::Protocol protocol() const { return algorithm_.proto; }
  bool lowLatency() const { return algorithm_.proto != ir::Protocol::Simple; }
  int64_t protocolTileBytes() const;
  bool serves(semantics::CallForm form) const;
  // Size window in bytes, inclusive; maxBytes nullopt = unbounded (maxBytes="0" or absent).
  semantics::SizeWindow sizeWindow() const { return semantics::sizeWindowOf(algorithm_); }

  const std::vector<TbTable>& tbs() const { return tbs_; }
  const std::vector<ExecStep>& steps() const { return steps_; }
  const std::vector<int32_t>& reduceSourceOffsets() const { return reduceSourceOffsets_; }
  const std::vector<ConnectionTable>& connections() const { return connections_; }
  int32_t firstTbOf(int32_t rank) const { return firstTb_[rank]; }
  int32_t scratchChunks(int32_t rank) const { return scratchChunks_[rank]; }
  // Where rank `rank`'s <gpu> element is in the file (its s_chunks, i_chunks, o_chunks).
  base::TextLocation gpuWhere(int32_t rank) const { return gpuWhere_[rank]; }
  // The largest cnt of a step that sends or receives (bounds a transfer); 0 when none does.
  int32_t maxTransferStepCount() const;
  // Original step index (s) of the first instruction an executed step came from.
  int32_t originalStep(int32_t execStep) const { return stepOrigin_[execStep]; }
  ProgramView hostView() const;

 private:
  ir::Algorithm algorithm_;
  std::string source_;
  semantics::CollectiveType collective_ = semantics::CollectiveType::AllReduce;
  std::vector<TbTable> tbs_;
  std::vector<ExecStep> steps_;
  std::vector<int32_t> stepOrigin_;
  std::vector<int32_t> reduceSourceOffsets_;
  std::vector<ConnectionTable> connections_;
  std::vector<int32_t> firstTb_;
  std::vector<int32_t> scratchChunks_;
  std::vector<base::TextLocation> gpuWhere_;
  friend class ProgramCompiler;
};

}  // namespace ccforge::runtime
