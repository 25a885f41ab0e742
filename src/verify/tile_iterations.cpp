#include "verify/tile_iterations.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "ir/names.hpp"
#include "semantics/protocol.hpp"

namespace ccforge::verify {
namespace {

bool waitsOnFlags(const ir::Algorithm& algo) {
  for (const ir::Gpu& g : algo.gpus)
    for (const ir::ThreadBlock& tb : g.threadBlocks)
      if (std::any_of(tb.steps.begin(), tb.steps.end(), [](const ir::Step& s) { return s.depid >= 0; })) return true;
  return false;
}

}  // namespace

// The kernel runs ceil(chunk / tile) iterations, with a chunk of count / nChunksPerLoop elements
// (msccl_kernel.cu), and both selectors take only counts that nChunksPerLoop divides: the largest
// chunk a window admits has floor(maxBytes / nchunksperloop) bytes. A waiter in iteration
// MSCCL_MAX_ITER finds the work index of its flag one too high and never stops waiting; blocks
// that wait on no flag are unaffected. A bounded window that admits such a call is an error; an
// unbounded one claims no particular size, and is a warning when such a call fits the GPU.
void checkTileIterations(const ir::Algorithm& algo, const semantics::RuntimeProfile& profile, Findings& findings) {
  if (algo.nchunksperloop < 1 || !waitsOnFlags(algo)) return;
  const semantics::SizeWindow window = semantics::sizeWindowOf(algo);
  if (window.maxBytes && *window.maxBytes < window.minBytes) return;  // selects nothing: limits.size-window
  const std::optional<int64_t> safe = largestFlagSafeBytes(algo.proto, algo.nchunksperloop, profile);
  if (!safe) return;  // no call is that large
  const int64_t tile = profileTileBytes(profile, algo.proto);
  const int64_t chunks = algo.nchunksperloop;
  const int64_t firstHanging = *safe + chunks;  // the first chunk one byte over
  const std::string why = fmt::format(
      "a call of {} bytes or more runs more than {} {}-byte {} tile iterations per chunk (nchunksperloop={}), and the "
      "runtime's dependency flags count {} (MSCCL_MAX_ITER): every dependency wait from there on spins forever. A "
      "maxBytes of at most {} avoids it",
      firstHanging, profile.maxTileIterations, tile, ir::protocolName(algo.proto), chunks, profile.maxTileIterations,
      *safe);
  if (!window.maxBytes) {
    // Nothing in the file bounds the sizes: only a call that fits the GPU can happen.
    if (firstHanging <= profile.deviceMemoryBytes)
      findings.warning(Check::Limits, "limits.tile-iterations", algo.where,
                       fmt::format("the size window is unbounded (maxBytes=0): {} (such a call fits the {} bytes of "
                                   "the GPU {} assumes)",
                                   why, profile.deviceMemoryBytes, profile.name));
    return;
  }
  if (*window.maxBytes < firstHanging) return;
  findings.error(Check::Limits, "limits.tile-iterations", algo.where,
                 fmt::format("maxBytes={} admits {} tile iterations per chunk: {}", *window.maxBytes,
                             semantics::tileIterations(*window.maxBytes / chunks, tile), why));
}

}  // namespace ccforge::verify
