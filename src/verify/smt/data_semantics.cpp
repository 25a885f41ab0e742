#include "semantics/step_kinds.hpp"
#include "verify/smt/data_semantics.hpp"

namespace ccforge::verify::smt {

DataSetting::DataSetting(const semantics::LoadedProgram& index, const std::vector<semantics::RankLayout>& layouts,
                         const std::optional<semantics::Collective>& collective, semantics::ChunkValues& values)
    : index_(index), layouts_(layouts), values_(values) {
  int32_t next = 0;
  for (const semantics::RankLayout& l : layouts) {
    regionFirstCell_.emplace_back();
    for (int32_t size : l.regionSizes) {
      regionFirstCell_.back().push_back(next);
      next += size;
    }
  }
  initial_.assign(static_cast<size_t>(next), semantics::ChunkValues::kUninitialized);
  for (int32_t r = 0; r < static_cast<int32_t>(layouts.size()); ++r) {
    const semantics::BufferView& in = layouts[static_cast<size_t>(r)].view(ir::Buffer::Input);
    for (int32_t k = 0; k < in.length; ++k)
      initial_[static_cast<size_t>(cell(r, ir::Buffer::Input, k))] =
          collective ? collective->initialInput(values, r, k) : values.input(r, k);
    const int32_t outputs =
        collective ? collective->outputChunks() : layouts[static_cast<size_t>(r)].view(ir::Buffer::Output).length;
    for (int32_t k = 0; k < outputs; ++k)
      outputs_.push_back(OutputChunk{r, k, cell(r, ir::Buffer::Output, k),
                                     collective ? collective->expectedOutput(values, r, k) : std::nullopt});
  }
}

int32_t DataSetting::cell(int32_t rank, ir::Buffer buffer, int32_t i) const {
  const semantics::BufferView& v = layouts_[static_cast<size_t>(rank)].view(buffer);
  if (i < 0 || i >= v.length) return kOutside;
  return regionFirstCell_[static_cast<size_t>(rank)][static_cast<size_t>(v.region)] + v.base + i;
}

int32_t DataSetting::sourceCell(uint32_t s, int32_t j) const {
  const semantics::LoadedStep& st = index_.step(s);
  if (!semantics::readsLocalSource(st.type)) return kOutside;
  return cell(index_.rankOf(index_.tbOfStep(s)), st.srcbuf, st.srcoff + j);
}

int32_t DataSetting::destinationCell(uint32_t s, int32_t j) const {
  const semantics::LoadedStep& st = index_.step(s);
  if (!semantics::writesLocalDestination(st.type)) return kOutside;
  return cell(index_.rankOf(index_.tbOfStep(s)), st.dstbuf, st.dstoff + j);
}

semantics::ChunkValues::Id DataSetting::result(uint32_t s, semantics::ChunkValues::Id incoming,
                                               semantics::ChunkValues::Id source,
                                               semantics::ChunkValues::Id destination) const {
  switch (semantics::stepValue(index_.step(s).type)) {
    case semantics::StepValue::Source: return source;
    case semantics::StepValue::Incoming: return incoming;
    case semantics::StepValue::IncomingPlusSource: return values_.reduce(incoming, source);
    case semantics::StepValue::DestinationPlusSource: return values_.reduce(destination, source);
    case semantics::StepValue::Computed:  // not modelled: the verifier decides fused programs by simulation
    case semantics::StepValue::None: break;
  }
  return semantics::ChunkValues::kUninitialized;
}

}  // namespace ccforge::verify::smt
