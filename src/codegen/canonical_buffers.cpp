#include "codegen/canonical_buffers.hpp"

namespace ccforge::codegen {

using ir::Buffer;

CanonicalBuffers::CanonicalBuffers(const semantics::Collective& collective, int32_t rank, semantics::CallForm form,
                                   int32_t scratchChunks)
    : layout_(collective.layout(rank, form, scratchChunks)) {
  for (size_t g = 0; g < layout_.regionSizes.size(); ++g)
    for (Buffer b : {Buffer::Scratch, Buffer::Output, Buffer::Input}) {  // the last match wins: Input first
      const semantics::BufferView& v = layout_.view(b);
      if (static_cast<size_t>(v.region) == g && v.base == 0 && v.length == layout_.regionSizes[g])
        canonicalOfRegion_[g] = b;
    }
  for (size_t g = 0; g < layout_.regionSizes.size(); ++g)
    sizes_[static_cast<size_t>(canonicalOfRegion_[g])] = layout_.regionSizes[g];
}

std::pair<Buffer, int32_t> CanonicalBuffers::canonical(Buffer b, int32_t index) const {
  const semantics::BufferView& v = layout_.view(b);
  return {canonicalOfRegion_[static_cast<size_t>(v.region)], v.base + index};
}

}  // namespace ccforge::codegen
