// Binomial-tree reduce: in round d = 1, 2, 4, ... rank v (counted from the root, v a multiple of
// 2d) receives and reduces the partial sum of rank v+d. Out of place, a rank that receives first
// copies its input to where it accumulates, so no input buffer is written: the root to its output,
// the others to scratch (their output buffer may be NULL).
#include "algorithms.hpp"
#include "support.hpp"

namespace ccforge::algorithms {

using ir::Buffer;

dsl::Program binomialReduce(const Arguments& a, ir::Protocol protocol) {
  const int32_t n = arg(a, "ranks"), root = arg(a, "root"), chunks = arg(a, "chunks");
  require(root < n, "root " + std::to_string(root) + " is not a rank of " + std::to_string(n));
  const semantics::CallForm form = callForm(a);
  auto real = [&](int32_t v) { return (v + root) % n; };
  // Whether rank v accumulates outside its input: it receives anything (v even) and the call is out of place.
  auto accumulates = [&](int32_t v) { return form == semantics::CallForm::OutOfPlace && v % 2 == 0 && v + 1 < n; };
  auto buffer = [&](int32_t v) { return !accumulates(v) ? Buffer::Input : v == 0 ? Buffer::Output : Buffer::Scratch; };
  dsl::Program p(
      "reduce_binomial",
      {.type = semantics::CollectiveType::Reduce, .ranks = n, .chunkFactor = chunks, .form = form, .root = root},
      {.protocol = protocol});
  for (int32_t i = 0; i < chunks; ++i) {
    for (int32_t v = 0; v < n; ++v)
      if (accumulates(v)) p.chunk(real(v), Buffer::Input, i).copy(real(v), buffer(v), i);
    for (int32_t d = 1; d < n; d *= 2)
      for (int32_t v = 0; v + d < n; v += 2 * d)
        p.chunk(real(v), buffer(v), i).reduce(p.chunk(real(v + d), buffer(v + d), i));
  }
  return p;
}

}  // namespace ccforge::algorithms
