#include "semantics/step_kinds.hpp"
#include "runtime/program.hpp"

#include <algorithm>
#include <array>
#include <map>
#include <tuple>

#include "runtime/call.hpp"
#include "runtime/core/launch_state.hpp"
#include "runtime/core/tiling.hpp"
#include "ir/names.hpp"

namespace ccforge::runtime {

constexpr int32_t kMaxFusedReduceSources = 16;
static_assert(static_cast<int>(StepKind::Nop) == static_cast<int>(ir::OpType::Nop) &&
                  static_cast<int>(StepKind::RecvReduceCopySend) == static_cast<int>(ir::OpType::RecvReduceCopySend) &&
                  static_cast<int>(StepKind::Copy) == static_cast<int>(ir::OpType::Copy),
              "StepKind mirrors ir::OpType");

class ProgramCompiler {
 public:
  ProgramCompiler(Program& p) : p_(p), a_(p.algorithm_) {}

  void run() {
    checkHeader();
    const Collective collective = Collective::standard(p_.collective_, a_.ngpus, a_.nchunksperloop);
    std::vector<const ir::Gpu*> byRank(a_.ngpus, nullptr);
    for (const ir::Gpu& g : a_.gpus) {
      if (g.id < 0 || g.id >= a_.ngpus) reject(g.where, "gpu id " + std::to_string(g.id) + " is outside 0.." + std::to_string(a_.ngpus - 1));
      if (byRank[g.id]) reject(g.where, "gpu id " + std::to_string(g.id) + " appears twice");
      byRank[g.id] = &g;
    }
    for (int32_t r = 0; r < a_.ngpus; ++r)
      if (!byRank[r]) reject(a_.where, "the program has no <gpu id=\"" + std::to_string(r) + "\"> (ngpus=" + std::to_string(a_.ngpus) + ")");
    // Global tb numbering first: dependencies name tbs by id within their rank.
    for (int32_t r = 0; r < a_.ngpus; ++r) {
      p_.firstTb_.push_back(static_cast<int32_t>(order_.size()));
      addRankTbs(*byRank[r]);
    }
    p_.firstTb_.push_back(static_cast<int32_t>(order_.size()));
    for (int32_t r = 0; r < a_.ngpus; ++r) {
      const ir::Gpu& g = *byRank[r];
      if (g.scratchChunks < 0) reject(g.where, "rank " + std::to_string(r) + ": s_chunks is negative");
      p_.scratchChunks_.push_back(g.scratchChunks);
      lengths_ = {collective.inputChunks(), collective.outputChunks(), g.scratchChunks};
      for (int32_t k = p_.firstTb_[r]; k < p_.firstTb_[r + 1]; ++k) compileTb(r, *order_[k], k);
    }
  }

 private:
  [[noreturn]] void reject(ir::TextLocation where, const std::string& message, bool unsupported = false) const {
    throw ProgramRejected(p_.source_, where, message, unsupported);
  }

  void checkHeader() {
    const std::optional<CollectiveType> type = collectiveTypeOf(a_.coll);
    if (!type || !runtimeSupports(*type))
      reject(a_.where, "coll=\"" + a_.collName + "\": the runtime runs allreduce, allgather, reducescatter, alltoall, "
                       "broadcast, reduce, gather and scatter programs (it needs the collective's definition to check them)",
             true);
    p_.collective_ = *type;
    if (a_.ngpus < 1) reject(a_.where, "ngpus must be at least 1");
    if (a_.nchunksperloop < 1) reject(a_.where, "nchunksperloop must be at least 1");
    const bool shards = *type == CollectiveType::AllGather || *type == CollectiveType::ReduceScatter ||
                        *type == CollectiveType::AllToAll || *type == CollectiveType::Gather ||
                        *type == CollectiveType::Scatter;
    if (shards && a_.nchunksperloop % a_.ngpus != 0)
      reject(a_.where, a_.collName + " needs nchunksperloop (" + std::to_string(a_.nchunksperloop) +
                           ") to be a multiple of ngpus (" + std::to_string(a_.ngpus) + ")");
    if (static_cast<int32_t>(a_.gpus.size()) != a_.ngpus)
      reject(a_.where, "ngpus=" + std::to_string(a_.ngpus) + " but the file has " + std::to_string(a_.gpus.size()) + " <gpu> elements");
  }

  void addRankTbs(const ir::Gpu& g) {
    std::vector<const ir::ThreadBlock*> byId(g.threadBlocks.size(), nullptr);
    for (const ir::ThreadBlock& tb : g.threadBlocks) {
      if (tb.id < 0 || tb.id >= static_cast<int32_t>(byId.size()))
        reject(tb.where, "rank " + std::to_string(g.id) + ": tb id " + std::to_string(tb.id) + " is not in 0.." +
                             std::to_string(byId.size() - 1) + " (ids must be dense)");
      if (byId[tb.id]) reject(tb.where, "rank " + std::to_string(g.id) + ": tb id " + std::to_string(tb.id) + " appears twice");
      byId[tb.id] = &tb;
    }
    for (const ir::ThreadBlock* tb : byId) order_.push_back(tb);
  }

  std::string where(int32_t rank, const ir::ThreadBlock& tb) const {
    return "rank " + std::to_string(rank) + " tb " + std::to_string(tb.id);
  }

  int32_t connection(int32_t sender, int32_t receiver, int32_t channel) {
    const auto key = std::make_tuple(sender, receiver, channel);
    auto it = connectionIndex_.find(key);
    if (it != connectionIndex_.end()) return it->second;
    const int32_t index = static_cast<int32_t>(p_.connections_.size());
    p_.connections_.push_back(ConnectionTable{sender, receiver, channel, -1, -1});
    connectionIndex_.emplace(key, index);
    return index;
  }

  void checkPeer(int32_t rank, const ir::ThreadBlock& tb, int32_t peer, const char* what) const {
    if (peer == -1) return;
    if (peer < 0 || peer >= a_.ngpus)
      reject(tb.where, where(rank, tb) + ": " + what + "=" + std::to_string(peer) + " is not a rank (0.." + std::to_string(a_.ngpus - 1) + ")");
    if (peer == rank) reject(tb.where, where(rank, tb) + ": " + what + " names its own rank");
  }

  void checkRange(int32_t rank, const ir::ThreadBlock& tb, const ir::Step& st, size_t index, ir::Buffer buffer,
                  int32_t offset, int32_t count, const char* role) const {
    const int32_t length = lengths_[static_cast<size_t>(buffer)];
    if (offset < 0 || static_cast<int64_t>(offset) + count > length)
      reject(st.where, where(rank, tb) + " step " + std::to_string(index) + " (" + std::string(ir::opTypeName(st.type)) + "): " +
                           role + " chunks [" + std::to_string(offset) + ", " + std::to_string(int64_t{offset} + count) +
                           ") are outside the " + std::string(ir::bufferName(buffer)) + " buffer of " + std::to_string(length) + " chunks");
  }

  void compileTb(int32_t rank, const ir::ThreadBlock& tb, int32_t globalTb) {
    checkPeer(rank, tb, tb.send, "send");
    checkPeer(rank, tb, tb.recv, "recv");
    if (tb.chan < 0) reject(tb.where, where(rank, tb) + ": chan must not be negative");
    if (static_cast<int64_t>(tb.steps.size()) > kMaxStepsPerTb)
      reject(tb.where, where(rank, tb) + ": " + std::to_string(tb.steps.size()) + " steps, the runtime supports " + std::to_string(kMaxStepsPerTb));
    TbTable table;
    table.rank = rank;
    table.tb = tb.id;
    table.firstStep = static_cast<int32_t>(p_.steps_.size());
    if (tb.send >= 0) {
      table.sendConnection = connection(rank, tb.send, tb.chan);
      ConnectionTable& c = p_.connections_[table.sendConnection];
      if (c.senderTb >= 0)
        reject(tb.where, where(rank, tb) + " and tb " + std::to_string(p_.tbs_[c.senderTb].tb) + " both send to rank " +
                             std::to_string(tb.send) + " on channel " + std::to_string(tb.chan) + " (a FIFO needs one writer)");
      c.senderTb = globalTb;
    }
    if (tb.recv >= 0) {
      table.recvConnection = connection(tb.recv, rank, tb.chan);
      ConnectionTable& c = p_.connections_[table.recvConnection];
      if (c.receiverTb >= 0)
        reject(tb.where, where(rank, tb) + " and tb " + std::to_string(p_.tbs_[c.receiverTb].tb) + " both receive from rank " +
                             std::to_string(tb.recv) + " on channel " + std::to_string(tb.chan) + " (a FIFO needs one reader)");
      c.receiverTb = globalTb;
    }
    const ir::Gpu& gpu = *std::find_if(a_.gpus.begin(), a_.gpus.end(), [&](const ir::Gpu& g) { return g.id == rank; });
    for (size_t i = 0; i < tb.steps.size(); ++i) compileStep(rank, gpu, tb, i);
    table.stepCount = static_cast<int32_t>(p_.steps_.size()) - table.firstStep;
    p_.tbs_.push_back(table);
  }

  void compileStep(int32_t rank, const ir::Gpu& gpu, const ir::ThreadBlock& tb, size_t index) {
    const ir::Step& st = tb.steps[index];
    const std::string at = where(rank, tb) + " step " + std::to_string(index);
    if (sends(st.type) && tb.send < 0) reject(st.where, at + ": '" + std::string(ir::opTypeName(st.type)) + "' sends but the tb has send=\"-1\"");
    if (receives(st.type) && tb.recv < 0) reject(st.where, at + ": '" + std::string(ir::opTypeName(st.type)) + "' receives but the tb has recv=\"-1\"");
    if (st.type != ir::OpType::Nop && st.cnt < 1) reject(st.where, at + ": cnt must be at least 1, got " + std::to_string(st.cnt));
    int32_t dependencyTb = -1;
    if (st.depid >= 0) {
      const int32_t tbs = static_cast<int32_t>(gpu.threadBlocks.size());
      if (st.depid >= tbs) reject(st.where, at + ": depid " + std::to_string(st.depid) + " names no tb of rank " + std::to_string(rank));
      const ir::ThreadBlock& dep = *order_[p_.firstTb_[rank] + st.depid];
      if (st.deps < 0 || st.deps >= static_cast<int32_t>(dep.steps.size()))
        reject(st.where, at + ": deps " + std::to_string(st.deps) + " names no step of tb " + std::to_string(st.depid) +
                             " (it has " + std::to_string(dep.steps.size()) + ")");
      dependencyTb = p_.firstTb_[rank] + st.depid;
    }
    const bool readsSrc = readsLocalSource(st.type);
    const bool writesDst = writesLocalDestination(st.type);
    if (st.type == ir::OpType::Reduce && extendFusedReduce(rank, tb, st, index, dependencyTb)) return;
    if (readsSrc && st.type != ir::OpType::Reduce) checkRange(rank, tb, st, index, st.srcbuf, st.srcoff, st.cnt, "source");
    if (writesDst) checkRange(rank, tb, st, index, st.dstbuf, st.dstoff, st.cnt, "destination");

    ExecStep e;
    e.kind = static_cast<StepKind>(st.type);
    e.srcBuffer = static_cast<uint8_t>(st.srcbuf);
    e.dstBuffer = static_cast<uint8_t>(st.dstbuf);
    e.publishes = st.hasdep ? 1 : 0;
    e.srcOffset = st.srcoff;
    e.dstOffset = st.dstoff;
    e.count = st.type == ir::OpType::Nop ? 0 : st.cnt;
    e.dependencyTb = dependencyTb;
    e.dependencyStep = st.deps;
    e.flagStep = static_cast<int32_t>(index);
    if (st.type == ir::OpType::Reduce) {
      checkRange(rank, tb, st, index, st.srcbuf, st.srcoff, st.cnt, "source");
      e.firstReduceSource = static_cast<int32_t>(p_.reduceSourceOffsets_.size());
      e.reduceSourceCount = 1;
      p_.reduceSourceOffsets_.push_back(st.srcoff);
      fusedReduceOpen_ = true;
    } else {
      fusedReduceOpen_ = false;
    }
    p_.steps_.push_back(e);
    p_.stepOrigin_.push_back(static_cast<int32_t>(index));
  }

  // A `re` that continues the previous `re` (same dst and srcbuf, no dependency of its own) joins
  // it as one more source; the fused step keeps the last cnt (msccl-ir.md §1).
  bool extendFusedReduce(int32_t rank, const ir::ThreadBlock& tb, const ir::Step& st, size_t index, int32_t dependencyTb) {
    if (!fusedReduceOpen_ || index == 0 || dependencyTb >= 0) return false;
    ExecStep& prev = p_.steps_.back();
    if (prev.kind != StepKind::Reduce || prev.dstBuffer != static_cast<uint8_t>(st.dstbuf) || prev.dstOffset != st.dstoff ||
        prev.srcBuffer != static_cast<uint8_t>(st.srcbuf) || prev.reduceSourceCount >= kMaxFusedReduceSources)
      return false;
    prev.count = st.cnt;
    prev.flagStep = static_cast<int32_t>(index);
    prev.publishes = prev.publishes || st.hasdep;
    ++prev.reduceSourceCount;
    p_.reduceSourceOffsets_.push_back(st.srcoff);
    // Every source and the destination are accessed with the fused (last) cnt.
    checkRange(rank, tb, st, index, st.dstbuf, st.dstoff, st.cnt, "destination");
    for (int32_t k = 0; k < prev.reduceSourceCount; ++k)
      checkRange(rank, tb, st, index, st.srcbuf, p_.reduceSourceOffsets_[prev.firstReduceSource + k], st.cnt, "fused source");
    return true;
  }

  Program& p_;
  const ir::Algorithm& a_;
  std::vector<const ir::ThreadBlock*> order_;  // by global tb index
  std::map<std::tuple<int32_t, int32_t, int32_t>, int32_t> connectionIndex_;
  std::array<int32_t, 3> lengths_{};
  bool fusedReduceOpen_ = false;
};

Program Program::compile(ir::Algorithm algorithm, std::string source) {
  Program p;
  p.algorithm_ = std::move(algorithm);
  p.source_ = std::move(source);
  ProgramCompiler(p).run();
  return p;
}

int64_t Program::protocolTileBytes() const {
  switch (algorithm_.proto) {
    case ir::Protocol::Simple: return kSimpleTileBytes;
    case ir::Protocol::LL: return kLLTileBytes;
    case ir::Protocol::LL128: return kLL128TileBytes;
  }
  return kSimpleTileBytes;
}

bool Program::serves(CallForm form) const {
  return form == CallForm::InPlace ? algorithm_.servesInPlace() : algorithm_.servesOutOfPlace();
}

std::optional<int64_t> Program::maxBytes() const {
  if (!algorithm_.maxBytes || *algorithm_.maxBytes == 0) return std::nullopt;
  return algorithm_.maxBytes;
}

int32_t Program::maxTransferStepCount() const {
  int32_t m = 0;
  for (const ExecStep& s : steps_)
    if (s.kind != StepKind::Copy && s.kind != StepKind::Reduce && s.kind != StepKind::Nop) m = std::max(m, s.count);
  return m;
}

ProgramView Program::hostView() const {
  return ProgramView{tbs_.data(), steps_.data(), reduceSourceOffsets_.data()};
}

}  // namespace ccforge::runtime
