#include "semantics/loaded_program.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <tuple>

#include "ir/names.hpp"
#include "semantics/protocol.hpp"
#include "semantics/step_kinds.hpp"

namespace ccforge::semantics {

std::string LoadedConnection::describe() const { return fmt::format("{}->{} ch {}", sender, receiver, channel); }

bool LoadedProgram::connectionsSound() const {
  return std::all_of(connections_.begin(), connections_.end(),
                     [](const LoadedConnection& c) { return c.extraSendTbs.empty() && c.extraRecvTbs.empty(); });
}

uint32_t LoadedProgram::publisherOf(const FlagWait& w) const {
  // Flag step numbers only grow along a thread block.
  const auto begin = publishers_.begin() + tbFirstPublisher_[w.tb],
             end = publishers_.begin() + tbFirstPublisher_[w.tb + 1];
  const auto it =
      std::lower_bound(begin, end, w.step, [&](uint32_t s, int32_t step) { return steps_[s].flagStep < step; });
  return it == end ? kNoStep : *it;
}

// "gpu R tb T step S", formatted only when an issue names it.
struct LoadedStepName {
  int32_t rank, tb, step;
};

}  // namespace ccforge::semantics

template <>
struct fmt::formatter<ccforge::semantics::LoadedStepName> : fmt::formatter<std::string_view> {
  auto format(const ccforge::semantics::LoadedStepName& n, fmt::format_context& ctx) const {
    return fmt::format_to(ctx.out(), "gpu {} tb {} step {}", n.rank, n.tb, n.step);
  }
};

namespace ccforge::semantics {

int32_t productRowsPerChunk(const ir::Gpu& g) {
  if (!g.product || g.inputChunks < 1 || g.product->rows < 1 || g.product->rows % g.inputChunks != 0) return 0;
  return g.product->rows / g.inputChunks;
}

class ProgramLoader {
 public:
  explicit ProgramLoader(const ir::Algorithm& a) : a_(a) { p_.algo_ = &a; }

  LoadResult run() {
    LoadResult result;
    if (header() && ranks() && products() && threadBlocks()) {
      for (int32_t tb = 0; tb < p_.threadBlockCount(); ++tb) steps(tb);
      if (issues_.empty()) connections();
    }
    result.issues = std::move(issues_);
    if (result.issues.empty()) result.program = std::move(p_);
    return result;
  }

 private:
  template <typename... Args>
  void issue(std::string rule, base::TextLocation where, fmt::format_string<Args...> format, Args&&... args) {
    issues_.push_back({std::move(rule), where, fmt::format(format, std::forward<Args>(args)...)});
  }

  bool header() {
    if (a_.ngpus < 1) issue("limits.ngpus", a_.where, "ngpus={} must be at least 1", a_.ngpus);
    if (a_.nchunksperloop < 1)
      issue("limits.nchunksperloop", a_.where, "nchunksperloop={} must be at least 1", a_.nchunksperloop);
    if (a_.ngpus >= 1 && static_cast<int64_t>(a_.gpus.size()) != a_.ngpus)
      issue("limits.ngpus", a_.where, "ngpus={} but the file has {} <gpu> elements", a_.ngpus, a_.gpus.size());
    return issues_.empty();
  }

  // The parser finds a rank's program by <gpu id>, wherever the element stands.
  bool ranks() {
    p_.gpuOfRank_.assign(static_cast<size_t>(a_.ngpus), -1);
    for (size_t i = 0; i < a_.gpus.size(); ++i) {
      const ir::Gpu& g = a_.gpus[i];
      if (g.id < 0 || g.id >= a_.ngpus) {
        issue("limits.gpu-id", g.where, "gpu id={} is outside 0..{}", g.id, a_.ngpus - 1);
      } else if (p_.gpuOfRank_[g.id] >= 0) {
        issue("limits.gpu-id", g.where, "gpu id={} appears twice (first at line {})", g.id,
              a_.gpus[p_.gpuOfRank_[g.id]].where.line);
      } else {
        p_.gpuOfRank_[g.id] = static_cast<int32_t>(i);
      }
      if (g.inputChunks < 0 || g.outputChunks < 0 || g.scratchChunks < 0)
        issue("limits.chunk-counts", g.where, "gpu {}: negative buffer size (i_chunks={} o_chunks={} s_chunks={})",
              g.id, g.inputChunks, g.outputChunks, g.scratchChunks);
    }
    if (issues_.empty())
      for (int32_t r = 0; r < a_.ngpus; ++r)
        if (p_.gpuOfRank_[r] < 0) issue("limits.gpu-id", a_.where, "no <gpu id=\"{}\">", r);
    return issues_.empty();
  }

  // A fused program's declarations: operands and the product each rank computes (docs/fused.md).
  bool products() {
    for (int32_t r = 0; r < a_.ngpus; ++r) {
      const ir::Gpu& g = p_.gpu(r);
      for (size_t i = 0; i < g.operands.size(); ++i) {
        const ir::Operand& o = g.operands[i];
        if (o.id != static_cast<int32_t>(i))
          issue("fused.declaration", o.where, "gpu {}: operand id={} should be {} (ids are dense, in order)", r, o.id,
                i);
        if (o.rows < 1 || o.cols < 1)
          issue("fused.declaration", o.where, "gpu {}: operand {} has shape {}x{}", r, o.id, o.rows, o.cols);
      }
      if (!g.product) continue;
      const ir::Product& pr = *g.product;
      auto operand = [&](int32_t id, const char* which) -> const ir::Operand* {
        if (id >= 0 && id < static_cast<int32_t>(g.operands.size())) return &g.operands[id];
        issue("fused.declaration", pr.where, "gpu {}: product operand {}={} names no <operand>", r, which, id);
        return nullptr;
      };
      const ir::Operand* A = operand(pr.a, "a");
      const ir::Operand* B = operand(pr.b, "b");
      if (pr.rows < 1 || pr.cols < 1 || g.inputChunks < 1 || pr.rows % g.inputChunks != 0)
        issue("fused.declaration", pr.where,
              "gpu {}: the product's {} rows must split evenly over i_chunks={} (its chunks are row blocks)", r,
              pr.rows, g.inputChunks);
      if (!A || !B) continue;
      auto require = [&](bool ok, const char* what) {
        if (!ok)
          issue("fused.declaration", pr.where, "gpu {}: {} needs {} (a: {}x{} {}, b: {}x{} {}, product {}x{})", r,
                ir::computeOpName(pr.op), what, A->rows, A->cols, ir::operandTypeName(A->dtype), B->rows, B->cols,
                ir::operandTypeName(B->dtype), pr.rows, pr.cols);
      };
      switch (pr.op) {
        case ir::ComputeOp::Gemv:
          require(A->dtype == ir::OperandType::F32 && B->dtype == ir::OperandType::F32, "f32 operands");
          require(A->rows == pr.rows && A->cols == B->rows && B->cols == 1 && pr.cols == 1,
                  "a: rows x K, b: K x 1, product rows x 1");
          break;
        case ir::ComputeOp::EmbeddingBag:
          require(A->dtype == ir::OperandType::F32 && B->dtype == ir::OperandType::I32,
                  "an f32 table a and i32 indices b");
          require(B->rows == pr.rows && A->cols == pr.cols, "a: V x D, b: rows x L, product rows x D");
          break;
        case ir::ComputeOp::Gemm:
          require(A->dtype == ir::OperandType::F32 && B->dtype == ir::OperandType::F32, "f32 operands");
          require(A->rows == pr.rows && A->cols == B->rows && B->cols == pr.cols,
                  "a: rows x H, b: H x cols, product rows x cols");
          break;
        case ir::ComputeOp::None: require(false, "an operator"); break;
      }
    }
    return issues_.empty();
  }

  // Operands are read-only and never leave their rank; a compute step defines the product rows it
  // names, which live in the input buffer at the chunks its row range maps to.
  void fusedStep(int32_t rank, const LoadedStepName& at, const ir::Step& st) {
    if (st.dstOperand)
      issue("fused.operand-write", st.where, "{}: '{}' writes operand memory (dstbuf=\"w\"); operands are read-only",
            at, ir::opTypeName(st.type));
    if (st.srcOperand && st.type != ir::OpType::Compute)
      issue("fused.operand-write", st.where, "{}: '{}' {} operand memory (srcbuf=\"w\"); only cmp steps read operands",
            at, ir::opTypeName(st.type), sends(st.type) ? "sends" : "copies");
    if (st.type != ir::OpType::Compute) return;
    const ir::Gpu& g = p_.gpu(rank);
    if (!g.product) {
      issue("fused.declaration", st.where, "{}: a cmp step on a rank that declares no <product>", at);
      return;
    }
    if (st.op != g.product->op)
      issue("fused.declaration", st.where, "{}: op=\"{}\" but the rank's product is {}", at, ir::computeOpName(st.op),
            ir::computeOpName(g.product->op));
    const int32_t perChunk = productRowsPerChunk(g);
    if (perChunk == 0) return;  // reported with the product
    if (st.row < 0 || st.nrows < 1 || st.row + static_cast<int64_t>(st.nrows) > g.product->rows ||
        st.row % perChunk != 0 || st.nrows % perChunk != 0) {
      issue("fused.declaration", st.where,
            "{}: rows {}..{} are not whole chunks of the {}-row product ({} rows per chunk)", at, st.row,
            static_cast<int64_t>(st.row) + st.nrows - 1, g.product->rows, perChunk);
      return;
    }
    if (st.dstbuf != ir::Buffer::Input || st.dstoff != st.row / perChunk || st.cnt != st.nrows / perChunk)
      issue("fused.declaration", st.where,
            "{}: rows {}..{} live in input chunks {}..{}, but the step writes {} chunks {}..{} (dstbuf=\"i\" dstoff={} "
            "cnt={} expected)",
            at, st.row, st.row + st.nrows - 1, st.row / perChunk, (st.row + st.nrows) / perChunk - 1,
            ir::bufferName(st.dstbuf), st.dstoff, st.dstoff + st.cnt - 1, st.row / perChunk, st.nrows / perChunk);
  }

  // Thread blocks by <tb id>, which must be dense (the parser: "thread block %d is missing").
  bool threadBlocks() {
    p_.rankFirstTb_.push_back(0);
    for (int32_t r = 0; r < a_.ngpus; ++r) {
      const ir::Gpu& g = p_.gpu(r);
      const auto n = static_cast<int32_t>(g.threadBlocks.size());
      std::vector<const ir::ThreadBlock*> byId(static_cast<size_t>(n), nullptr);
      for (const ir::ThreadBlock& tb : g.threadBlocks) {
        if (tb.id < 0 || tb.id >= n)
          issue("limits.tb-id", tb.where, "gpu {}: tb id={} is outside 0..{} (ids must be dense)", r, tb.id, n - 1);
        else if (byId[tb.id])
          issue("limits.tb-id", tb.where, "gpu {}: tb id={} appears twice", r, tb.id);
        else
          byId[tb.id] = &tb;
        peer(r, tb, tb.send, "send");
        peer(r, tb, tb.recv, "recv");
      }
      for (const ir::ThreadBlock* tb : byId) {
        p_.tbs_.push_back(tb);
        p_.tbRank_.push_back(r);
      }
      p_.rankFirstTb_.push_back(static_cast<int32_t>(p_.tbs_.size()));
    }
    return issues_.empty();
  }

  void peer(int32_t rank, const ir::ThreadBlock& tb, int32_t peer, const char* what) {
    if (peer == -1) return;
    if (peer < 0 || peer >= a_.ngpus)
      issue("limits.peer", tb.where, "gpu {} tb {}: {}={} is not a rank (0..{}) or -1", rank, tb.id, what, peer,
            a_.ngpus - 1);
    else if (peer == rank)
      issue("limits.peer", tb.where, "gpu {} tb {}: {}={} is the block's own rank", rank, tb.id, what, peer);
  }

  // One thread block, exactly as the parser's step loop forms its transmissions.
  void steps(int32_t g) {
    const ir::ThreadBlock& tb = *p_.tbs_[g];
    const int32_t rank = p_.tbRank_[g];
    if (p_.tbFirstStep_.empty()) p_.tbFirstStep_.push_back(0);
    const auto first = static_cast<uint32_t>(p_.steps_.size());
    std::vector<FlagWait> pending;  // dependencies not yet attached to a transmission
    int32_t transmissions = 0;
    int32_t lastFlag = -1;   // the kernel's step count at the end of the previous instruction
    int32_t reductions = 0;  // `re` steps so far in the block (the parser's numReductions)
    bool chainOpen = false;
    uint32_t chainHead = 0;
    for (size_t i = 0; i < tb.steps.size(); ++i) {
      const ir::Step& st = tb.steps[i];
      const LoadedStepName at{rank, tb.id, static_cast<int32_t>(i)};
      LoadedStep l;
      l.type = st.type;
      l.srcbuf = st.srcbuf;
      l.dstbuf = st.dstbuf;
      l.srcoff = st.srcoff;
      l.dstoff = st.dstoff;
      l.cnt = st.cnt;
      l.where = st.where;
      l.chainFirst = static_cast<int32_t>(i);
      l.row = st.row;
      l.nrows = st.nrows;
      if (a_.fused) fusedStep(rank, at, st);
      if (dependency(rank, at, st)) pending.push_back({p_.rankFirstTb_[rank] + st.depid, st.deps});
      if (st.type != ir::OpType::Nop) {
        if (st.cnt < 0)
          issue("limits.cnt", st.where, "{}: cnt={} is negative; the runtime's parser refuses it", at, st.cnt);
        // The parser takes 0 (msccl_parser.cc:577) and the kernel's copy loop then never runs, so
        // such a step moves nothing and uses no FIFO slot; ccforge's analyses pair transfers by step.
        if (st.cnt == 0)
          issue("limits.cnt", st.where,
                "{}: cnt=0 moves nothing: the runtime accepts it and only waits and publishes for it, but ccforge "
                "does not analyse such steps (remove it, or make it a nop with the dependency)",
                at);
        if (sends(st.type) && tb.send < 0)
          issue("limits.peer", st.where, "{}: '{}' sends, but the thread block has send=-1", at,
                ir::opTypeName(st.type));
        if (receives(st.type) && tb.recv < 0)
          issue("limits.peer", st.where, "{}: '{}' receives, but the thread block has recv=-1", at,
                ir::opTypeName(st.type));
        const LoadedStep* head = chainOpen ? &p_.steps_[chainHead] : nullptr;
        const bool continues = head && st.type == ir::OpType::Reduce && st.depid == -1 && head->srcbuf == st.srcbuf &&
                               head->dstbuf == st.dstbuf && head->dstoff == st.dstoff;
        if (continues) {
          l.chainFirst = head->chainFirst;
          l.transmission = transmissions - 1;
          l.flagStep = lastFlag + 1;  // the kernel counts every member of a fused chain
        } else {
          l.transmission = transmissions++;
          if (!pending.empty() && st.depid < 0)
            issue("limits.nop", st.where,
                  "{}: closes a run of dependencies (nops) but has no dependency of its own; the runtime's parser "
                  "rejects the file",
                  at);
          l.firstWait = static_cast<uint32_t>(p_.waits_.size());
          l.waitCount = static_cast<uint32_t>(pending.size());
          p_.waits_.insert(p_.waits_.end(), pending.begin(), pending.end());
          pending.clear();
          // Dependencies beyond the first advance the kernel's step count too.
          l.flagStep = lastFlag + 1 + std::max<int32_t>(0, static_cast<int32_t>(l.waitCount) - 1);
          chainHead = static_cast<uint32_t>(p_.steps_.size());
        }
        lastFlag = l.flagStep;
        l.publishes = st.hasdep;
        if (st.type == ir::OpType::Reduce) {
          ++reductions;
          chainOpen = !st.hasdep && reductions != kMaxReduceFusion;
        } else {
          chainOpen = false;
        }
      }
      p_.steps_.push_back(l);
      p_.stepTb_.push_back(g);
    }
    fuseChains(first);
    p_.tbFirstStep_.push_back(static_cast<uint32_t>(p_.steps_.size()));
    if (p_.tbFirstPublisher_.empty()) p_.tbFirstPublisher_.push_back(0);
    for (uint32_t s = first; s < p_.steps_.size(); ++s)
      if (p_.steps_[s].publishes) p_.publishers_.push_back(s);
    p_.tbFirstPublisher_.push_back(static_cast<uint32_t>(p_.publishers_.size()));
  }

  // Every member of a fused reduction moves the chain's last cnt, and its chain's length.
  void fuseChains(uint32_t first) {
    const auto end = static_cast<uint32_t>(p_.steps_.size());
    for (uint32_t s = first; s < end; ++s) {
      LoadedStep& l = p_.steps_[s];
      if (l.type != ir::OpType::Reduce || l.chainFirst != static_cast<int32_t>(s - first)) continue;
      uint32_t last = s;
      int32_t members = 1;
      for (uint32_t k = s + 1; k < end; ++k) {
        if (p_.steps_[k].type == ir::OpType::Nop) continue;
        if (p_.steps_[k].type != ir::OpType::Reduce || p_.steps_[k].chainFirst != l.chainFirst) break;
        last = k;
        ++members;
      }
      for (uint32_t k = s; k <= last; ++k) {
        if (p_.steps_[k].type == ir::OpType::Nop) continue;
        p_.steps_[k].cnt = p_.steps_[last].cnt;
        p_.steps_[k].chainLength = members;
        p_.steps_[k].flagStep = p_.steps_[last].flagStep;
      }
    }
  }

  // Whether the step carries a usable dependency; reports the ones that name nothing.
  bool dependency(int32_t rank, const LoadedStepName& at, const ir::Step& st) {
    // The parsers record a dependency only for depid >= 0 and then ignore deps (msccl_parser.cc:545-549,
    // microsoft/msccl topo.cc:1032-1036).
    if (st.depid < 0) return false;
    if (st.deps < 0) {
      issue("limits.dependency", st.where,
            "{}: depid={} deps={}: a dependency on a thread block needs a step (deps >= 0)", at, st.depid, st.deps);
      return false;
    }
    if (st.depid >= p_.threadBlocksOfRank(rank)) {
      issue("limits.dependency", st.where, "{}: depid={} names no thread block of gpu {}", at, st.depid, rank);
      return false;
    }
    const ir::ThreadBlock& target = *p_.tbs_[p_.rankFirstTb_[rank] + st.depid];
    if (st.deps >= static_cast<int32_t>(target.steps.size())) {
      issue("limits.dependency", st.where, "{}: deps={} but tb {} has {} steps", at, st.deps, st.depid,
            target.steps.size());
      return false;
    }
    return true;
  }

  void connections() {
    const size_t ntbs = p_.tbs_.size();
    const uint32_t total = p_.stepCount();
    p_.sendPos_.assign(total, kNoStep);
    p_.recvPos_.assign(total, kNoStep);
    p_.tbSendConn_.assign(ntbs, -1);
    p_.tbRecvConn_.assign(ntbs, -1);
    std::map<std::tuple<int32_t, int32_t, int32_t>, int32_t> connectionOf;
    for (size_t t = 0; t < ntbs; ++t) {
      const ir::ThreadBlock& tb = *p_.tbs_[t];
      if (tb.send >= 0) connectionOf.try_emplace({p_.tbRank_[t], tb.send, tb.chan}, 0);
      if (tb.recv >= 0) connectionOf.try_emplace({tb.recv, p_.tbRank_[t], tb.chan}, 0);
    }
    int32_t next = 0;
    for (auto& [key, id] : connectionOf) id = next++;
    p_.connections_.resize(connectionOf.size());
    for (const auto& [key, id] : connectionOf) {
      p_.connections_[id].sender = std::get<0>(key);
      p_.connections_[id].receiver = std::get<1>(key);
      p_.connections_[id].channel = std::get<2>(key);
    }
    for (size_t t = 0; t < ntbs; ++t) {
      const auto tb = static_cast<int32_t>(t);
      const ir::ThreadBlock& block = *p_.tbs_[t];
      LoadedConnection* out = nullptr;
      LoadedConnection* in = nullptr;
      if (block.send >= 0) out = claim(connectionOf.at({p_.tbRank_[t], block.send, block.chan}), tb, true);
      if (block.recv >= 0) in = claim(connectionOf.at({block.recv, p_.tbRank_[t], block.chan}), tb, false);
      for (uint32_t s = p_.tbFirstStep_[t]; s < p_.tbFirstStep_[t + 1]; ++s) {
        const ir::OpType type = p_.steps_[s].type;
        if (sends(type) && out) {
          p_.sendPos_[s] = static_cast<uint32_t>(out->sendSteps.size());
          out->sendSteps.push_back(s);
        }
        if (receives(type) && in) {
          p_.recvPos_[s] = static_cast<uint32_t>(in->recvSteps.size());
          in->recvSteps.push_back(s);
        }
      }
    }
  }

  LoadedConnection* claim(int32_t c, int32_t tb, bool sending) {
    LoadedConnection& conn = p_.connections_[c];
    int32_t& owner = sending ? conn.sendTb : conn.recvTb;
    if (owner >= 0) {
      (sending ? conn.extraSendTbs : conn.extraRecvTbs).push_back(tb);
      return nullptr;
    }
    owner = tb;
    (sending ? p_.tbSendConn_ : p_.tbRecvConn_)[tb] = c;
    return &conn;
  }

  const ir::Algorithm& a_;
  LoadedProgram p_;
  std::vector<LoadIssue> issues_;
};

LoadResult loadProgram(const ir::Algorithm& algorithm) { return ProgramLoader(algorithm).run(); }

}  // namespace ccforge::semantics
