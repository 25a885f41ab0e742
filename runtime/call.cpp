#include "runtime/call.hpp"

#include <stdexcept>

#include "runtime/names.hpp"
#include "semantics/selection.hpp"

namespace ccforge::runtime {
namespace {

void require(bool ok, const std::string& message) {
  if (!ok) throw std::invalid_argument(message);
}

}  // namespace

bool runtimeSupports(semantics::CollectiveType t) {
  return t != semantics::CollectiveType::Custom && t != semantics::CollectiveType::AllToNext;
}

int64_t sizeMultiplier(semantics::CollectiveType t, int32_t ranks) {
  return static_cast<int64_t>(ccforge::semantics::sizeMultiplier(irKindOf(t), ranks));
}

int64_t totalBytes(const CallShape& call) {
  return call.count * sizeMultiplier(call.collective, call.ranks) * static_cast<int64_t>(dataTypeSize(call.dtype));
}

bool reduces(semantics::CollectiveType t) {
  return t == semantics::CollectiveType::AllReduce || t == semantics::CollectiveType::ReduceScatter ||
         t == semantics::CollectiveType::Reduce;
}

semantics::Collective canonicalCollective(const CallShape& call) {
  require(runtimeSupports(call.collective), "the runtime cannot run a " +
                                                std::string(collectiveTypeName(call.collective)) +
                                                " collective: its definition is not part of the program");
  require(call.ranks >= 1, "the number of ranks must be at least 1, got " + std::to_string(call.ranks));
  require(call.count >= 0, "count must not be negative, got " + std::to_string(call.count));
  return semantics::Collective::standard(call.collective, call.ranks, hasShards(call.collective) ? call.ranks : 1,
                                         call.root);
}

int64_t canonicalChunkElems(const CallShape& call) {
  const semantics::Collective c = canonicalCollective(call);
  const int64_t total = call.count * sizeMultiplier(call.collective, call.ranks);
  require(total % c.chunksPerLoop() == 0,
          std::string(collectiveTypeName(call.collective)) + " needs count (" + std::to_string(call.count) +
              ") to be a multiple of the number of ranks (" + std::to_string(call.ranks) + ")");
  return total / c.chunksPerLoop();
}

BufferSizes bufferSizes(const CallShape& call, int32_t rank) {
  const semantics::Collective c = canonicalCollective(call);
  const int64_t chunk = canonicalChunkElems(call);
  const semantics::RankLayout layout = c.layout(rank, call.form, 0);
  BufferSizes s;
  s.inputElems = c.inputChunks() * chunk;
  s.outputElems = c.outputChunks() * chunk;
  s.regionElems = static_cast<int64_t>(layout.regionSizes[0]) * chunk;
  s.inputOffsetElems = static_cast<int64_t>(layout.view(ir::Buffer::Input).base) * chunk;
  s.outputOffsetElems = static_cast<int64_t>(layout.view(ir::Buffer::Output).base) * chunk;
  return s;
}

void validateBuffers(const CallShape& call, std::span<const RankBuffers> buffers) {
  require(static_cast<int64_t>(buffers.size()) == call.ranks, "the call is for " + std::to_string(call.ranks) +
                                                                  " ranks but buffers were given for " +
                                                                  std::to_string(buffers.size()));
  const int64_t elem = static_cast<int64_t>(dataTypeSize(call.dtype));
  for (int32_t r = 0; r < call.ranks; ++r) {
    const RankBuffers& b = buffers[r];
    const BufferSizes s = bufferSizes(call, r);
    const std::string who = "rank " + std::to_string(r) + ": ";
    if (call.count == 0) continue;
    require(b.send != nullptr && b.recv != nullptr, who + "null buffer pointer");
    if (call.form == semantics::CallForm::OutOfPlace) {
      require(b.sendElems == s.inputElems, who + "send buffer has " + std::to_string(b.sendElems) +
                                               " elements, the call needs " + std::to_string(s.inputElems));
      require(b.recvElems == s.outputElems, who + "receive buffer has " + std::to_string(b.recvElems) +
                                                " elements, the call needs " + std::to_string(s.outputElems));
      continue;
    }
    // In place: one buffer of regionElems; the send pointer sits where the input view starts.
    const bool sendInside = call.collective == semantics::CollectiveType::ReduceScatter ||
                            call.collective == semantics::CollectiveType::Scatter;
    const int64_t regionHolder = sendInside ? b.sendElems : b.recvElems;
    require(regionHolder == s.regionElems, who + "in-place buffer has " + std::to_string(regionHolder) +
                                               " elements, the call needs " + std::to_string(s.regionElems));
    const auto* recv = static_cast<const unsigned char*>(b.recv);
    const auto* send = static_cast<const unsigned char*>(b.send);
    const bool aliased =
        sendInside ? recv == send + s.outputOffsetElems * elem : send == recv + s.inputOffsetElems * elem;
    require(aliased, who + "in place, the send buffer must be " +
                         (sendInside ? std::string("the receive buffer minus ") + std::to_string(s.outputOffsetElems)
                                     : std::string("the receive buffer plus ") + std::to_string(s.inputOffsetElems)) +
                         " elements");
  }
}

std::string describeCall(const CallShape& call) {
  std::string s(collectiveTypeName(call.collective));
  if (isRooted(call.collective)) s += "(root " + std::to_string(call.root) + ")";
  s += ", " + std::to_string(call.ranks) + " ranks, count " + std::to_string(call.count) + " x " +
       std::string(dataTypeName(call.dtype));
  if (reduces(call.collective)) s += ", op " + std::string(reduceOpName(call.op));
  s += ", " + std::string(callFormName(call.form));
  return s;
}

}  // namespace ccforge::runtime
