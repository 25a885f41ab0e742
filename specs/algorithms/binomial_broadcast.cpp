// Binomial-tree broadcast: in round d = 1, 2, 4, ... every rank that has the data (d of them,
// counted from the root) sends it to the rank d further. Chunk by chunk, so chunks pipeline.
#include "algorithms.hpp"
#include "support.hpp"

namespace ccforge::algorithms {

using ir::Buffer;

dsl::Program binomialBroadcast(const Arguments& a, ir::Protocol protocol) {
  const int32_t n = arg(a, "ranks"), root = arg(a, "root"), chunks = arg(a, "chunks");
  require(root < n, "root " + std::to_string(root) + " is not a rank of " + std::to_string(n));
  const semantics::CallForm form = callForm(a);
  auto real = [&](int32_t v) { return (v + root) % n; };  // ranks counted from the root
  dsl::Program p(
      "broadcast_binomial",
      {.type = semantics::CollectiveType::Broadcast, .ranks = n, .chunkFactor = chunks, .form = form, .root = root},
      {.protocol = protocol});
  for (int32_t i = 0; i < chunks; ++i) {
    const Buffer rootBuffer = form == semantics::CallForm::OutOfPlace ? Buffer::Input : Buffer::Output;
    if (form == semantics::CallForm::OutOfPlace) p.chunk(root, Buffer::Input, i).copy(root, Buffer::Output, i);
    for (int32_t d = 1; d < n; d *= 2)
      for (int32_t v = 0; v < d && v + d < n; ++v)
        p.chunk(real(v), v == 0 ? rootBuffer : Buffer::Output, i).copy(real(v + d), Buffer::Output, i);
  }
  return p;
}

}  // namespace ccforge::algorithms
