#include "semantics/step_kinds.hpp"
#include "verify/symbolic_execution.hpp"

namespace ccforge::verify {

using ir::OpType;

SymbolicExecution::SymbolicExecution(const semantics::LoadedProgram& index,
                                     const std::vector<semantics::RankLayout>& layouts,
                                     const semantics::Collective& collective, semantics::ChunkValues& values)
    : index_(index), layouts_(layouts), collective_(collective), values_(values) {
  provenance_.resize(3);  // kInitialInput, kNeverWritten, kOutOfBounds
  memory_.resize(layouts.size());
  for (size_t r = 0; r < layouts.size(); ++r) {
    for (int32_t size : layouts[r].regionSizes)
      memory_[r].emplace_back(static_cast<size_t>(size), Cell{semantics::ChunkValues::kUninitialized, kNeverWritten});
    const semantics::BufferView& in = layouts[r].view(ir::Buffer::Input);
    if (index.algorithm().fused && index.gpu(static_cast<int32_t>(r)).product) continue;  // compute steps define it
    for (int32_t k = 0; k < in.length; ++k)
      memory_[r][in.region][in.base + k] =
          Cell{collective.initialInput(values, static_cast<int32_t>(r), k), kInitialInput};
  }
  sent_.resize(index.connections().size());
  sentStart_.assign(index.stepCount(), 0);
}

Cell* SymbolicExecution::at(int32_t rank, ir::Buffer buffer, int32_t i) {
  const semantics::BufferView& v = layouts_[rank].view(buffer);
  if (i < 0 || i >= v.length) return nullptr;
  return &memory_[rank][v.region][v.base + i];
}

Cell SymbolicExecution::cell(int32_t rank, ir::Buffer buffer, int32_t i) const {
  const semantics::BufferView& v = layouts_[rank].view(buffer);
  return memory_[rank][v.region][v.base + i];
}

uint32_t SymbolicExecution::record(uint32_t step, uint32_t from, uint32_t with, semantics::ChunkValues::Id value) {
  provenance_.push_back(Provenance{step, from, with, value});
  return static_cast<uint32_t>(provenance_.size() - 1);
}

void SymbolicExecution::run(const StepGraph& graph) {
  for (uint32_t s : graph.order()) execute(s);
}

void SymbolicExecution::execute(uint32_t s) {
  const semantics::LoadedStep& st = index_.step(s);
  if (st.type == OpType::Nop) return;
  const int32_t tb = index_.tbOfStep(s);
  const int32_t rank = index_.rankOf(tb);
  const auto cnt = static_cast<size_t>(st.cnt);

  // What arrives: the chunks of the matching send, in FIFO order.
  std::vector<Cell> incoming;
  if (semantics::receives(st.type)) {
    const semantics::LoadedConnection& c = index_.connections()[index_.recvConnection(tb)];
    uint32_t sender = c.sendSteps[index_.recvPosition(s)];
    const std::vector<Cell>& stream = sent_[index_.recvConnection(tb)];
    incoming.resize(cnt, Cell{semantics::ChunkValues::kUninitialized, kNeverWritten});
    for (size_t j = 0;
         j < cnt && sentStart_[sender] + j < stream.size() && j < static_cast<size_t>(index_.step(sender).cnt); ++j)
      incoming[j] = stream[sentStart_[sender] + j];
  }
  // Read every operand before writing, so overlapping src and dst behave like one copy.
  std::vector<Cell> local(cnt), result(cnt);
  auto read = [&](ir::Buffer b, int32_t i) {
    Cell* c = at(rank, b, i);
    return c ? *c : Cell{semantics::ChunkValues::kUninitialized, kOutOfBounds};
  };
  if (semantics::readsLocalSource(st.type))
    for (size_t j = 0; j < cnt; ++j) local[j] = read(st.srcbuf, st.srcoff + static_cast<int32_t>(j));
  for (size_t j = 0; j < cnt; ++j) {
    switch (semantics::stepValue(st.type)) {
      case semantics::StepValue::Source:  // a copy's result is a new write, with its provenance; a send's is the
                                          // operand
        result[j] = semantics::writesLocalDestination(st.type)
                        ? Cell{local[j].value, record(s, local[j].provenance, 0, local[j].value)}
                        : local[j];
        break;
      case semantics::StepValue::Incoming:
        result[j] = Cell{incoming[j].value, record(s, incoming[j].provenance, 0, incoming[j].value)};
        break;
      case semantics::StepValue::IncomingPlusSource: {
        semantics::ChunkValues::Id v = values_.reduce(incoming[j].value, local[j].value);
        result[j] = Cell{v, record(s, incoming[j].provenance, local[j].provenance, v)};
        break;
      }
      case semantics::StepValue::DestinationPlusSource: {
        Cell dst = read(st.dstbuf, st.dstoff + static_cast<int32_t>(j));
        semantics::ChunkValues::Id v = values_.reduce(dst.value, local[j].value);
        result[j] = Cell{v, record(s, dst.provenance, local[j].provenance, v)};
        break;
      }
      case semantics::StepValue::Computed: {  // product chunk dstoff + j of the rank: its input in the collective's
                                              // terms
        semantics::ChunkValues::Id v = collective_.initialInput(values_, rank, st.dstoff + static_cast<int32_t>(j));
        result[j] = Cell{v, record(s, kInitialInput, 0, v)};
        break;
      }
      case semantics::StepValue::None: break;
    }
  }
  if (semantics::writesLocalDestination(st.type))
    for (size_t j = 0; j < cnt; ++j)
      if (Cell* c = at(rank, st.dstbuf, st.dstoff + static_cast<int32_t>(j))) *c = result[j];
  if (semantics::sends(st.type)) {
    std::vector<Cell>& stream = sent_[index_.sendConnection(tb)];
    sentStart_[s] = static_cast<uint32_t>(stream.size());
    stream.insert(stream.end(), result.begin(), result.end());
  }
}

}  // namespace ccforge::verify
