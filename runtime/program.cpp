#include "runtime/program.hpp"

#include <algorithm>
#include <array>

#include "runtime/call.hpp"
#include "runtime/core/launch_state.hpp"
#include "runtime/core/tiling.hpp"
#include "ir/names.hpp"
#include "semantics/loaded_program.hpp"
#include "semantics/protocol.hpp"
#include "semantics/runtime_profile.hpp"
#include "semantics/step_kinds.hpp"

namespace ccforge::runtime {

class ProgramCompiler {
 public:
  ProgramCompiler(ExecutableProgram& p) : p_(p), a_(p.algorithm_) {}

  void run() {
    checkHeader();
    const semantics::Collective collective =
        semantics::Collective::standard(p_.collective_, a_.ngpus, a_.nchunksperloop);
    const semantics::LoadResult load = ccforge::semantics::loadProgram(a_);
    if (!load.program) reject(load.issues.front().where, load.issues.front().message);
    const semantics::LoadedProgram& program = *load.program;
    for (const semantics::LoadedConnection& c : program.connections()) {
      if (!c.extraSendTbs.empty())
        reject(program.threadBlock(c.extraSendTbs.front()).where,
               where(program, c.extraSendTbs.front()) + " and tb " + std::to_string(program.idOf(c.sendTb)) +
                   " both send on connection " + c.describe() + " (a FIFO needs one writer)");
      if (!c.extraRecvTbs.empty())
        reject(program.threadBlock(c.extraRecvTbs.front()).where,
               where(program, c.extraRecvTbs.front()) + " and tb " + std::to_string(program.idOf(c.recvTb)) +
                   " both receive on connection " + c.describe() + " (a FIFO needs one reader)");
      p_.connections_.push_back(ConnectionTable{c.sender, c.receiver, c.channel, c.sendTb, c.recvTb});
    }
    for (int32_t r = 0; r <= a_.ngpus; ++r)
      p_.firstTb_.push_back(r < a_.ngpus ? program.firstTbOfRank(r) : program.threadBlockCount());
    for (int32_t r = 0; r < a_.ngpus; ++r) {
      const ir::Gpu& g = program.gpu(r);
      p_.scratchChunks_.push_back(g.scratchChunks);
      p_.gpuWhere_.push_back(g.where);
      lengths_ = {collective.inputChunks(), collective.outputChunks(), g.scratchChunks};
      for (int32_t t = program.firstTbOfRank(r); t < program.firstTbOfRank(r + 1); ++t) compileTb(program, t);
    }
  }

 private:
  [[noreturn]] void reject(base::TextLocation where, const std::string& message, bool unsupported = false) const {
    throw ProgramRejected(p_.source_, where, message, unsupported);
  }

  void checkHeader() {
    const std::optional<semantics::CollectiveType> type = semantics::collectiveTypeOf(a_.coll);
    if (!type || !runtimeSupports(*type))
      reject(a_.where,
             "coll=\"" + a_.collName +
                 "\": the runtime runs allreduce, allgather, reducescatter, alltoall, "
                 "broadcast, reduce, gather and scatter programs (it needs the collective's definition to check them)",
             true);
    p_.collective_ = *type;
    if (a_.ngpus < 1) reject(a_.where, "ngpus must be at least 1");
    if (a_.nchunksperloop < 1) reject(a_.where, "nchunksperloop must be at least 1");
    if (hasShards(*type) && a_.nchunksperloop % a_.ngpus != 0)
      reject(a_.where, a_.collName + " needs nchunksperloop (" + std::to_string(a_.nchunksperloop) +
                           ") to be a multiple of ngpus (" + std::to_string(a_.ngpus) + ")");
  }

  static std::string where(const semantics::LoadedProgram& program, int32_t tb) {
    return "rank " + std::to_string(program.rankOf(tb)) + " tb " + std::to_string(program.idOf(tb));
  }

  // What a step touches must lie in its buffer, whatever --no-verify says: the interpreter
  // trusts these tables.
  void checkRange(const semantics::LoadedProgram& program, uint32_t s, ir::Buffer buffer, int32_t offset,
                  const char* role) const {
    const semantics::LoadedStep& st = program.step(s);
    const int32_t length = lengths_[static_cast<size_t>(buffer)];
    if (offset < 0 || static_cast<int64_t>(offset) + st.cnt > length)
      reject(st.where, where(program, program.tbOfStep(s)) + " step " + std::to_string(program.indexInTb(s)) + " (" +
                           std::string(ir::opTypeName(st.type)) + "): " + role + " chunks [" + std::to_string(offset) +
                           ", " + std::to_string(int64_t{offset} + st.cnt) + ") are outside the " +
                           std::string(ir::bufferName(buffer)) + " buffer of " + std::to_string(length) + " chunks");
  }

  // The tb's transmissions as the executor forms them: nops vanish into the waits of the next
  // instruction, a fused `re` chain is one step with several sources.
  void compileTb(const semantics::LoadedProgram& program, int32_t t) {
    const ir::ThreadBlock& tb = program.threadBlock(t);
    if (static_cast<int64_t>(tb.steps.size()) > kMaxStepsPerTb)
      reject(tb.where, where(program, t) + ": " + std::to_string(tb.steps.size()) + " steps, the runtime supports " +
                           std::to_string(kMaxStepsPerTb));
    TbTable table;
    table.rank = program.rankOf(t);
    table.tb = program.idOf(t);
    table.firstStep = static_cast<int32_t>(p_.steps_.size());
    table.sendConnection = program.sendConnection(t);
    table.recvConnection = program.recvConnection(t);
    for (uint32_t s = program.firstStep(t); s < program.firstStep(t) + static_cast<uint32_t>(program.stepsOf(t)); ++s) {
      const semantics::LoadedStep& st = program.step(s);
      if (st.type == ir::OpType::Nop) continue;
      if (semantics::readsLocalSource(st.type)) checkRange(program, s, st.srcbuf, st.srcoff, "source");
      if (semantics::writesLocalDestination(st.type)) checkRange(program, s, st.dstbuf, st.dstoff, "destination");
      const int32_t index = program.indexInTb(s);
      if (st.chainFirst != index) {  // a later member of a fused reduction
        ExecStep& fused = p_.steps_.back();
        if (fused.reduceSourceCount == semantics::fusedReduceSourceCapacity(program.algorithm().proto))
          reject(st.where, where(program, t) + " step " + std::to_string(index) +
                               ": the runtime's parser fuses more 're' steps into one reduction than the kernel's " +
                               std::to_string(semantics::fusedReduceSourceCapacity(program.algorithm().proto)) +
                               " sources");
        ++fused.reduceSourceCount;
        p_.reduceSourceOffsets_.push_back(st.srcoff);
        fused.publishes = st.publishes ? 1 : 0;
        fused.flagStep = st.flagStep;
        continue;
      }
      // One wait per executed step: the waits beyond the last become nops before it.
      for (const semantics::FlagWait* w = program.waitsBegin(s); w + 1 < program.waitsEnd(s); ++w) {
        ExecStep wait;
        wait.dependencyTb = w->tb;
        wait.dependencyStep = w->step;
        p_.steps_.push_back(wait);
        p_.stepOrigin_.push_back(index);
      }
      ExecStep e;
      e.kind = st.type;
      e.srcBuffer = static_cast<uint8_t>(st.srcbuf);
      e.dstBuffer = static_cast<uint8_t>(st.dstbuf);
      e.publishes = st.publishes ? 1 : 0;
      e.srcOffset = st.srcoff;
      e.dstOffset = st.dstoff;
      e.count = st.cnt;
      if (st.waitCount > 0) {
        e.dependencyTb = (program.waitsEnd(s) - 1)->tb;
        e.dependencyStep = (program.waitsEnd(s) - 1)->step;
      }
      e.flagStep = st.flagStep;
      if (st.type == ir::OpType::Reduce) {
        e.firstReduceSource = static_cast<int32_t>(p_.reduceSourceOffsets_.size());
        e.reduceSourceCount = 1;
        p_.reduceSourceOffsets_.push_back(st.srcoff);
      }
      p_.steps_.push_back(e);
      p_.stepOrigin_.push_back(index);
    }
    table.stepCount = static_cast<int32_t>(p_.steps_.size()) - table.firstStep;
    p_.tbs_.push_back(table);
  }

  ExecutableProgram& p_;
  const ir::Algorithm& a_;
  std::array<int32_t, 3> lengths_{};
};

ExecutableProgram ExecutableProgram::compile(ir::Algorithm algorithm, std::string source) {
  ExecutableProgram p;
  p.algorithm_ = std::move(algorithm);
  p.source_ = std::move(source);
  ProgramCompiler(p).run();
  return p;
}

int64_t ExecutableProgram::protocolTileBytes() const { return semantics::tileBytes(algorithm_.proto); }

bool ExecutableProgram::serves(semantics::CallForm form) const {
  return form == semantics::CallForm::InPlace ? algorithm_.servesInPlace() : algorithm_.servesOutOfPlace();
}

int32_t ExecutableProgram::maxTransferStepCount() const {
  int32_t m = 0;
  for (const ExecStep& s : steps_)
    if (semantics::communicates(s.kind)) m = std::max(m, s.count);
  return m;
}

ProgramView ExecutableProgram::hostView() const {
  return ProgramView{tbs_.data(), steps_.data(), reduceSourceOffsets_.data()};
}

}  // namespace ccforge::runtime
