#include "semantics/step_kinds.hpp"
#include "verify/program_index.hpp"

#include <fmt/format.h>

#include <map>
#include <tuple>

#include "ir/names.hpp"

namespace ccforge::verify {

std::string Connection::describe() const { return fmt::format("{}->{} ch {}", sender, receiver, channel); }

ProgramIndex::ProgramIndex(const ir::Algorithm& algo, const std::vector<int32_t>& gpuOfRank) : algo_(algo) {
  rankFirstTb_.push_back(0);
  for (int32_t r = 0; r < algo.ngpus; ++r) {
    const ir::Gpu& g = algo.gpus[gpuOfRank[r]];
    std::vector<const ir::ThreadBlock*> byId(g.threadBlocks.size());
    for (const ir::ThreadBlock& tb : g.threadBlocks) byId[tb.id] = &tb;
    for (const ir::ThreadBlock* tb : byId) {
      tbs_.push_back(tb);
      tbRank_.push_back(r);
    }
    rankFirstTb_.push_back(static_cast<int32_t>(tbs_.size()));
  }
  const size_t ntbs = tbs_.size();
  tbFirstStep_.resize(ntbs);
  uint32_t total = 0;
  for (size_t t = 0; t < ntbs; ++t) {
    tbFirstStep_[t] = total;
    total += static_cast<uint32_t>(tbs_[t]->steps.size());
  }
  stepTb_.resize(total);
  sendPos_.assign(total, kNoStep);
  recvPos_.assign(total, kNoStep);
  nextFlagged_.resize(total);
  tbSendConn_.assign(ntbs, -1);
  tbRecvConn_.assign(ntbs, -1);

  // Connections are numbered in (sender, receiver, channel) order, whatever the file order.
  std::map<std::tuple<int32_t, int32_t, int32_t>, int32_t> connectionOf;
  for (size_t t = 0; t < ntbs; ++t) {
    const ir::ThreadBlock& tb = *tbs_[t];
    if (tb.send >= 0) connectionOf.try_emplace({tbRank_[t], tb.send, tb.chan}, 0);
    if (tb.recv >= 0) connectionOf.try_emplace({tb.recv, tbRank_[t], tb.chan}, 0);
  }
  int32_t next = 0;
  for (auto& [key, id] : connectionOf) id = next++;
  connections_.resize(connectionOf.size());
  for (const auto& [key, id] : connectionOf) {
    connections_[id].sender = std::get<0>(key);
    connections_[id].receiver = std::get<1>(key);
    connections_[id].channel = std::get<2>(key);
  }

  for (size_t t = 0; t < ntbs; ++t) {
    const auto tb = static_cast<int32_t>(t);
    const ir::ThreadBlock& block = *tbs_[t];
    Connection* out = nullptr;
    Connection* in = nullptr;
    if (block.send >= 0) {
      int32_t c = connectionOf.at({tbRank_[t], block.send, block.chan});
      out = &connections_[c];
      if (out->sendTb < 0) {
        out->sendTb = tb;
        tbSendConn_[t] = c;
      } else {
        out->extraSendTbs.push_back(tb);
        out = nullptr;
      }
    }
    if (block.recv >= 0) {
      int32_t c = connectionOf.at({block.recv, tbRank_[t], block.chan});
      in = &connections_[c];
      if (in->recvTb < 0) {
        in->recvTb = tb;
        tbRecvConn_[t] = c;
      } else {
        in->extraRecvTbs.push_back(tb);
        in = nullptr;
      }
    }
    uint32_t flagged = kNoStep;
    for (int32_t i = static_cast<int32_t>(block.steps.size()) - 1; i >= 0; --i) {
      uint32_t s = tbFirstStep_[t] + static_cast<uint32_t>(i);
      stepTb_[s] = tb;
      if (block.steps[i].hasdep) flagged = s;
      nextFlagged_[s] = flagged;
    }
    for (size_t i = 0; i < block.steps.size(); ++i) {
      uint32_t s = tbFirstStep_[t] + static_cast<uint32_t>(i);
      ir::OpType type = block.steps[i].type;
      if (sends(type) && out) {
        sendPos_[s] = static_cast<uint32_t>(out->sendSteps.size());
        out->sendSteps.push_back(s);
      }
      if (receives(type) && in) {
        recvPos_[s] = static_cast<uint32_t>(in->recvSteps.size());
        in->recvSteps.push_back(s);
      }
    }
  }
}

uint32_t ProgramIndex::flaggedStepAtOrAfter(int32_t tb, int32_t step) const {
  return nextFlagged_[tbFirstStep_[tb] + static_cast<uint32_t>(step)];
}

StepRef ProgramIndex::ref(uint32_t s, std::string role, int32_t tile) const {
  int32_t tb = stepTb_[s];
  return StepRef{tbRank_[tb], idOf(tb), indexInTb(s), tile, step(s).where, std::move(role)};
}

}  // namespace ccforge::verify
