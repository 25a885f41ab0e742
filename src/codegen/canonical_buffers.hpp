// Canonical naming of a rank's memory. In an in-place call two buffers share one memory (the
// allreduce output is the input, the allgather input is a shard of the output); every
// reference is renamed to the one buffer that spans the memory, as the runtime sees it.
#pragma once

#include <array>
#include <cstdint>
#include <utility>

#include "semantics/collective.hpp"

namespace ccforge::codegen {

class CanonicalBuffers {
 public:
  CanonicalBuffers(const semantics::Collective& collective, int32_t rank, semantics::CallForm form,
                   int32_t scratchChunks);

  // (canonical buffer, offset) of chunk `index` of buffer `b`.
  std::pair<ir::Buffer, int32_t> canonical(ir::Buffer b, int32_t index) const;
  // Chunks of a canonical buffer (0 for a buffer that is not canonical).
  int32_t size(ir::Buffer b) const { return sizes_[static_cast<size_t>(b)]; }
  const semantics::RankLayout& layout() const { return layout_; }

 private:
  semantics::RankLayout layout_;
  std::array<ir::Buffer, 3> canonicalOfRegion_{ir::Buffer::Input, ir::Buffer::Output, ir::Buffer::Scratch};
  std::array<int32_t, 3> sizes_{0, 0, 0};
};

}  // namespace ccforge::codegen
