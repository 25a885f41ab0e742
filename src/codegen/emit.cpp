#include "codegen/emit.hpp"

#include <algorithm>
#include <numeric>
#include <tuple>

#include "codegen/compile_error.hpp"
#include "ir/names.hpp"

namespace ccforge::codegen {
namespace {

using ir::OpType;

ir::Step stepOf(const InstructionDag& dag, const ScheduledStep& st) {
  ir::Step out;
  out.hasdep = st.hasdep;
  if (st.instr < 0) {
    out.type = OpType::Nop;
    out.srcbuf = ir::Buffer::Input;
    out.dstbuf = ir::Buffer::Output;
    return out;
  }
  const Instr& in = dag.instrs[static_cast<size_t>(st.instr)];
  out.type = in.type;
  out.cnt = in.cnt;
  out.srcbuf = in.srcBuf;
  out.srcoff = in.srcOff;
  out.dstbuf = in.dstBuf;
  out.dstoff = in.dstOff;
  switch (in.type) {
    case OpType::Compute:  // rows of the product, filled in by emitAlgorithm, which knows its shape
      out.srcOperand = true;
      break;
    case OpType::Send: {  // where the data goes, for readers of the file; the runtime ignores it
      const Instr& to = dag.instrs[static_cast<size_t>(in.sendTo)];
      out.dstbuf = to.dstBuf;
      out.dstoff = to.dstOff;
      break;
    }
    case OpType::Recv: {  // where it came from, likewise
      const Instr& from = dag.instrs[static_cast<size_t>(in.recvFrom)];
      out.srcbuf = from.sendPeer >= 0 && from.recvPeer >= 0 ? from.dstBuf : from.srcBuf;
      out.srcoff = from.sendPeer >= 0 && from.recvPeer >= 0 ? from.dstOff : from.srcOff;
      break;
    }
    case OpType::RecvCopySend:
      out.srcbuf = in.dstBuf;
      out.srcoff = in.dstOff;
      break;
    case OpType::RecvReduceSend:  // nothing is stored; name the local operand on both sides
      out.dstbuf = in.srcBuf;
      out.dstoff = in.srcOff;
      break;
    default: break;
  }
  return out;
}

std::string collName(ir::CollectiveKind kind, const semantics::RuntimeProfile& target) {
  if (kind == ir::CollectiveKind::ReduceScatter && !target.requiresExecutorHeader) return "reduce_scatter";
  return std::string(ir::collectiveName(kind));
}

}  // namespace

ir::Algorithm emitAlgorithm(const dsl::Program& program, const Lowered& lowered, const Schedule& schedule,
                            const semantics::RuntimeProfile& target) {
  const InstructionDag& dag = lowered.dag;
  const semantics::Collective coll = program.binding().collective(dag.refinement);
  ir::Algorithm algo;
  algo.name = program.name();
  algo.proto = program.options().protocol;
  algo.nchunksperloop = coll.chunksPerLoop();
  algo.ngpus = program.ranks();
  algo.coll = irKindOf(coll.type());
  algo.collName = collName(algo.coll, target);
  const std::optional<dsl::FusedProduct>& product = program.binding().product;
  if (product) {
    algo.fused = true;
    algo.collName = std::string(ir::kFusedCollPrefix) + algo.collName;
    if (product->rows % coll.inputChunks() != 0)
      throw CompileError("the product's " + std::to_string(product->rows) + " rows do not divide into the " +
                         std::to_string(coll.inputChunks()) +
                         " compiled input chunks (instances and parallelize cut "
                         "every chunk); use fewer parts or more rows");
  }
  const int32_t rowsPerChunk = product ? product->rows / coll.inputChunks() : 0;
  const bool inplace = program.binding().form == semantics::CallForm::InPlace;
  algo.inplace = inplace;
  if (target.requiresExecutorHeader) {
    algo.outofplace = !inplace;
    algo.minBytes = 0;
    algo.maxBytes = 0;
  }
  int32_t channels = 1;
  bool waitsOnFlags = false;
  std::vector<bool> waitedFor(schedule.tbs.size(), false);  // indexed by thread block, all ranks
  std::vector<int32_t> idOf(schedule.tbs.size(), -1);
  for (int32_t r = 0; r < program.ranks(); ++r) {
    std::vector<int32_t> order = schedule.tbsOfRank[static_cast<size_t>(r)];
    auto key = [&](int32_t tb) {
      const ScheduledTb& t = schedule.tbs[static_cast<size_t>(tb)];
      return std::tuple(t.send, t.recv, t.channel, tb);
    };
    std::sort(order.begin(), order.end(), [&](int32_t a, int32_t b) { return key(a) < key(b); });
    for (int32_t tb : order)
      for (const ScheduledStep& st : schedule.tbs[static_cast<size_t>(tb)].steps)
        if (st.depTb >= 0) waitedFor[static_cast<size_t>(st.depTb)] = true;
    auto number = [&] {
      for (size_t i = 0; i < order.size(); ++i) idOf[static_cast<size_t>(order[i])] = static_cast<int32_t>(i);
    };
    number();
    int32_t highest = -1;
    for (int32_t tb : order)
      if (waitedFor[static_cast<size_t>(tb)]) highest = std::max(highest, idOf[static_cast<size_t>(tb)]);
    if (highest > target.maxDepId) {  // the waited-for thread blocks first
      std::stable_partition(order.begin(), order.end(), [&](int32_t tb) { return waitedFor[static_cast<size_t>(tb)]; });
      number();
      const auto waited =
          std::count_if(order.begin(), order.end(), [&](int32_t tb) { return waitedFor[static_cast<size_t>(tb)]; });
      if (waited > target.maxDepId + 1)
        throw CompileError("rank " + std::to_string(r) + " has " + std::to_string(waited) +
                           " thread blocks that others wait for; depid can name only " +
                           std::to_string(target.maxDepId + 1) + " (it is an int8 in the executor)");
    }

    ir::Gpu gpu;
    gpu.id = r;
    gpu.inputChunks = coll.inputChunks();
    gpu.outputChunks = coll.outputChunks();
    gpu.scratchChunks = lowered.scratchChunks[static_cast<size_t>(r)];
    if (product) product->declareOn(gpu);
    for (int32_t tb : order) {
      const ScheduledTb& t = schedule.tbs[static_cast<size_t>(tb)];
      ir::ThreadBlock out;
      out.id = idOf[static_cast<size_t>(tb)];
      out.send = t.send;
      out.recv = t.recv;
      out.chan = t.channel;
      channels = std::max(channels, t.channel + 1);
      out.steps.reserve(t.steps.size());
      for (const ScheduledStep& st : t.steps) {
        ir::Step step = stepOf(dag, st);
        step.s = static_cast<int32_t>(out.steps.size());
        if (step.type == OpType::Compute) {
          step.op = product->op;
          step.row = step.dstoff * rowsPerChunk;
          step.nrows = step.cnt * rowsPerChunk;
        }
        if (st.depTb >= 0) {
          step.depid = idOf[static_cast<size_t>(st.depTb)];
          waitsOnFlags = true;
          step.deps = st.depStep;
        }
        out.steps.push_back(step);
      }
      gpu.threadBlocks.push_back(std::move(out));
    }
    algo.gpus.push_back(std::move(gpu));
  }
  algo.nchannels = channels;
  // Past MSCCL_MAX_ITER tile iterations every dependency wait spins forever: the window stops
  // where they would start (docs/msccl-ir.md, "Tile iterations and dependency flags").
  if (target.requiresExecutorHeader && waitsOnFlags)
    algo.maxBytes = largestFlagSafeBytes(algo.proto, algo.nchunksperloop, target).value_or(0);
  return algo;
}

}  // namespace ccforge::codegen
