// A program as the MSCCL executor loads it (msccl_parser.cc, mscclGetAlgoFromXmlFile): ranks by
// `<gpu id>`, thread blocks by `<tb id>`, and each step with the meaning the parser gives it:
//   - consecutive `re` steps fuse into one multi-source reduction while the destination buffer
//     and offset and the source buffer stay the same and the step has no dependency; a chain
//     ends after a step with hasdep=1 and after the 16th `re` of the thread block (the parser
//     compares its running count of reductions with MSCCL_MAX_REDUCE_FUSION); the fused
//     reduction moves the last member's cnt for every member;
//   - nops are no instructions: their dependencies, and any gathered while a reduction chain
//     continued, become waits of the next instruction that starts a transmission (which the
//     parser requires to have a dependency of its own); dependencies of trailing nops are lost;
//   - a flag carries the kernel's own step count, which advances by one per instruction, by the
//     number of dependencies beyond the first and by the members of a fused chain beyond the
//     first: it equals the step's position only when every nop carries a dependency.
// Every engine (verifier, SMT replay, simulator, interpreter) reads this form, so none of them
// can give a file another meaning. Structural problems (no execution is defined) are reported
// as located issues instead of a program.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ir/model.hpp"

namespace ccforge::semantics {

inline constexpr uint32_t kNoStep = UINT32_MAX;

// A flag a step waits for: thread block `tb` (global number) has published step `step` or a
// later one in the same tile iteration.
struct FlagWait {
  int32_t tb = -1;
  int32_t step = 0;
};

struct LoadedStep {
  ir::OpType type = ir::OpType::Nop;  // Nop: does nothing, waits for nothing
  ir::Buffer srcbuf = ir::Buffer::Input;
  ir::Buffer dstbuf = ir::Buffer::Input;
  int32_t srcoff = -1;
  int32_t dstoff = -1;
  int32_t cnt = 0;         // chunks as executed (a fused chain's last cnt)
  uint32_t firstWait = 0;  // into LoadedProgram::waits(): flags waited for before the step runs
  uint32_t waitCount = 0;
  bool publishes = false;     // sets its thread block's flag after the step
  int32_t flagStep = 0;       // the step number that flag carries
  int32_t transmission = -1;  // the runtime instruction it is part of (index in its tb); -1 for nops
  int32_t chainFirst = 0;     // first member (index in its tb) of its fused `re` chain, itself otherwise
  int32_t chainLength = 1;    // members of that chain
  int32_t row = -1;           // cmp: the product rows [row, row + nrows) it defines (in chunks dstoff..dstoff+cnt-1)
  int32_t nrows = 0;
  base::TextLocation where;
};

struct LoadedConnection {
  int32_t sender = -1;
  int32_t receiver = -1;
  int32_t channel = 0;
  int32_t sendTb = -1;  // global thread block on `sender` (the first, if several claim the side)
  int32_t recvTb = -1;
  std::vector<uint32_t> sendSteps;    // sending steps of sendTb, in order
  std::vector<uint32_t> recvSteps;    // receiving steps of recvTb, in order
  std::vector<int32_t> extraSendTbs;  // further blocks claiming a side: two writers (readers) of one FIFO
  std::vector<int32_t> extraRecvTbs;
  std::string describe() const;  // "1->2 ch 0"
};

// Where and why a file has no defined execution. `rule` names the verifier rule.
struct LoadIssue {
  std::string rule;
  base::TextLocation where;
  std::string message;
};

class LoadedProgram {
 public:
  const ir::Algorithm& algorithm() const { return *algo_; }
  int32_t ranks() const { return algo_->ngpus; }
  const ir::Gpu& gpu(int32_t rank) const { return algo_->gpus[gpuOfRank_[rank]]; }
  const std::vector<int32_t>& gpuOfRank() const { return gpuOfRank_; }

  int32_t threadBlockCount() const { return static_cast<int32_t>(tbs_.size()); }
  int32_t globalTb(int32_t rank, int32_t tbId) const { return rankFirstTb_[rank] + tbId; }
  int32_t firstTbOfRank(int32_t rank) const { return rankFirstTb_[rank]; }
  int32_t threadBlocksOfRank(int32_t rank) const { return rankFirstTb_[rank + 1] - rankFirstTb_[rank]; }
  int32_t rankOf(int32_t tb) const { return tbRank_[tb]; }
  int32_t idOf(int32_t tb) const { return tb - rankFirstTb_[tbRank_[tb]]; }
  const ir::ThreadBlock& threadBlock(int32_t tb) const { return *tbs_[tb]; }
  uint32_t firstStep(int32_t tb) const { return tbFirstStep_[tb]; }
  int32_t stepsOf(int32_t tb) const { return static_cast<int32_t>(tbFirstStep_[tb + 1] - tbFirstStep_[tb]); }

  uint32_t stepCount() const { return static_cast<uint32_t>(steps_.size()); }
  int32_t tbOfStep(uint32_t s) const { return stepTb_[s]; }
  int32_t indexInTb(uint32_t s) const { return static_cast<int32_t>(s - tbFirstStep_[stepTb_[s]]); }
  const LoadedStep& step(uint32_t s) const { return steps_[s]; }
  const std::vector<LoadedStep>& steps() const { return steps_; }
  // The flags step s waits for, in the order the runtime checks them.
  const FlagWait* waitsBegin(uint32_t s) const { return waits_.data() + steps_[s].firstWait; }
  const FlagWait* waitsEnd(uint32_t s) const { return waits_.data() + steps_[s].firstWait + steps_[s].waitCount; }

  // Connection a thread block sends on / receives from, or -1.
  int32_t sendConnection(int32_t tb) const { return tbSendConn_[tb]; }
  int32_t recvConnection(int32_t tb) const { return tbRecvConn_[tb]; }
  // Position of a sending (receiving) step among its block's sending (receiving) steps.
  uint32_t sendPosition(uint32_t s) const { return sendPos_[s]; }
  uint32_t recvPosition(uint32_t s) const { return recvPos_[s]; }
  // Ordered by (sender, receiver, channel), whatever the file order.
  const std::vector<LoadedConnection>& connections() const { return connections_; }
  bool connectionsSound() const;  // every side of every connection has one thread block

  // The step whose flag satisfies `w` in the same tile iteration: the first step of w.tb that
  // publishes a step number >= w.step; kNoStep if none does (the wait lasts into the next tile).
  uint32_t publisherOf(const FlagWait& w) const;

 private:
  friend class ProgramLoader;
  const ir::Algorithm* algo_ = nullptr;
  std::vector<int32_t> gpuOfRank_;
  std::vector<const ir::ThreadBlock*> tbs_;
  std::vector<int32_t> rankFirstTb_, tbRank_;
  std::vector<uint32_t> tbFirstStep_;
  std::vector<int32_t> stepTb_;
  std::vector<LoadedStep> steps_;
  std::vector<FlagWait> waits_;
  std::vector<uint32_t> publishers_;        // publishing steps, by thread block and in order
  std::vector<uint32_t> tbFirstPublisher_;  // into publishers_
  std::vector<uint32_t> sendPos_, recvPos_;
  std::vector<int32_t> tbSendConn_, tbRecvConn_;
  std::vector<LoadedConnection> connections_;
};

struct LoadResult {
  std::optional<LoadedProgram> program;  // absent when an issue leaves execution undefined
  std::vector<LoadIssue> issues;
};

// Rows of a fused program's product per input chunk (product rows / i_chunks); 0 when the rank
// declares no product or the rows do not divide evenly.
int32_t productRowsPerChunk(const ir::Gpu& gpu);

// The algorithm must outlive the program. Checks only what makes execution undefined (ids,
// peers, dependency targets, steps that need a peer the block lacks, the parser's own
// rejection of a dependency chain); runtime limits are the verifier's and the profiles' job.
LoadResult loadProgram(const ir::Algorithm& algorithm);

}  // namespace ccforge::semantics
