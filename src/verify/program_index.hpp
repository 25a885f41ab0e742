// A structurally sound program (see lint) indexed for analysis: thread blocks and steps get
// global numbers (rank-major, tb id order), and sends/receives are grouped by connection
// (sender rank, receiver rank, channel).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ir/model.hpp"
#include "verify/report.hpp"

namespace ccforge::verify {

inline constexpr uint32_t kNoStep = UINT32_MAX;

struct Connection {
  int32_t sender = -1;
  int32_t receiver = -1;
  int32_t channel = 0;
  int32_t sendTb = -1;  // global thread block on `sender` (first one, if several claim it)
  int32_t recvTb = -1;
  std::vector<uint32_t> sendSteps;  // send-type steps of sendTb, in order
  std::vector<uint32_t> recvSteps;  // recv-type steps of recvTb, in order
  std::vector<int32_t> extraSendTbs;  // further blocks claiming the same side: a violation
  std::vector<int32_t> extraRecvTbs;
  std::string describe() const;  // "1->2 ch 0"
};

class ProgramIndex {
 public:
  ProgramIndex(const ir::Algorithm& algo, const std::vector<int32_t>& gpuOfRank);

  const ir::Algorithm& algorithm() const { return algo_; }
  int32_t ranks() const { return algo_.ngpus; }
  int32_t threadBlockCount() const { return static_cast<int32_t>(tbRank_.size()); }
  uint32_t stepCount() const { return static_cast<uint32_t>(stepTb_.size()); }

  int32_t globalTb(int32_t rank, int32_t tbId) const { return rankFirstTb_[rank] + tbId; }
  int32_t firstTbOfRank(int32_t rank) const { return rankFirstTb_[rank]; }
  int32_t threadBlocksOfRank(int32_t rank) const { return rankFirstTb_[rank + 1] - rankFirstTb_[rank]; }
  int32_t rankOf(int32_t tb) const { return tbRank_[tb]; }
  int32_t idOf(int32_t tb) const { return tb - rankFirstTb_[tbRank_[tb]]; }
  const ir::ThreadBlock& threadBlock(int32_t tb) const { return *tbs_[tb]; }
  uint32_t firstStep(int32_t tb) const { return tbFirstStep_[tb]; }
  int32_t stepsOf(int32_t tb) const { return static_cast<int32_t>(tbs_[tb]->steps.size()); }

  int32_t tbOfStep(uint32_t step) const { return stepTb_[step]; }
  int32_t indexInTb(uint32_t step) const { return static_cast<int32_t>(step - tbFirstStep_[stepTb_[step]]); }
  const ir::Step& step(uint32_t step) const { return tbs_[stepTb_[step]]->steps[indexInTb(step)]; }

  // Connection a thread block sends on / receives from, or -1.
  int32_t sendConnection(int32_t tb) const { return tbSendConn_[tb]; }
  int32_t recvConnection(int32_t tb) const { return tbRecvConn_[tb]; }
  // Position of a send-type (recv-type) step among its block's send-type (recv-type) steps.
  uint32_t sendPosition(uint32_t step) const { return sendPos_[step]; }
  uint32_t recvPosition(uint32_t step) const { return recvPos_[step]; }
  const std::vector<Connection>& connections() const { return connections_; }

  // The step that publishes the flag a dependency on (tb, step) waits for: the first step at or
  // after it with hasdep=1, or kNoStep if there is none in the block.
  uint32_t flaggedStepAtOrAfter(int32_t tb, int32_t step) const;

  StepRef ref(uint32_t step, std::string role = {}, int32_t tile = -1) const;

 private:
  const ir::Algorithm& algo_;
  std::vector<const ir::ThreadBlock*> tbs_;
  std::vector<int32_t> rankFirstTb_;
  std::vector<int32_t> tbRank_;
  std::vector<uint32_t> tbFirstStep_;
  std::vector<int32_t> stepTb_;
  std::vector<uint32_t> sendPos_, recvPos_;
  std::vector<uint32_t> nextFlagged_;  // per step: first step at or after it with hasdep=1
  std::vector<int32_t> tbSendConn_, tbRecvConn_;
  std::vector<Connection> connections_;
};

}  // namespace ccforge::verify
