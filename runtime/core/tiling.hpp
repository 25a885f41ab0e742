// Chunks, tiles, count splitting and FIFO slots for one call (msccl-ir.md §2): the numbers every
// thread block derives the same way on host and device.
#pragma once

#include <cstdint>

#include "semantics/host_device.hpp"
#include "semantics/protocol.hpp"
#include "semantics/size_arithmetic.hpp"

namespace ccforge::runtime {

inline constexpr int32_t kPayloadBytesPerLine = 4;  // LL line: 4 bytes of data + 4 bytes of flag

struct Tiling {
  int64_t chunkElems = 0;  // S = count * m / nchunksperloop
  int64_t tileElems = 0;   // protocol tile in elements
  int64_t tiles = 0;       // ceil(S / tile)
  int32_t maxAllowedCount = 1;
  int32_t elemBytes = 1;
  bool lowLatency = false;  // LL or LL128: flag-in-data lines, one slice per transfer
  int32_t slicesPerTransfer = 1;
  int32_t slotsInFlight = 1;   // slices a sender may be ahead of its receiver
  int64_t sliceSlotElems = 0;  // Simple: elements per FIFO slot
  int64_t sliceSlotLines = 0;  // LL: 8-byte lines per FIFO slot

  CCF_HD int64_t tileLength(int64_t tile) const {
    const int64_t rest = chunkElems - tile * tileElems;
    return rest < tileElems ? rest : tileElems;
  }
  CCF_HD int32_t transfersFor(int32_t count) const { return semantics::transfersOf(count, maxAllowedCount); }
  // Element offset (within a buffer) and length of transfer `group` of a step at chunk offset
  // `offset` with `count` chunks, in tile iteration `tile`. Consecutive chunks only share a
  // transfer when a chunk fits a tile more than once, so the range is always contiguous.
  CCF_HD int64_t transferStart(int32_t offset, int32_t group, int64_t tile) const {
    return (static_cast<int64_t>(offset) + static_cast<int64_t>(group) * maxAllowedCount) * chunkElems +
           tile * tileElems;
  }
  CCF_HD int64_t transferLength(int32_t count, int32_t group, int64_t tile) const {
    const int32_t left = count - group * maxAllowedCount;
    const int32_t chunks = left < maxAllowedCount ? left : maxAllowedCount;
    return chunks * tileLength(tile);
  }
  // Elements [sliceBegin, sliceEnd) of a transfer of `length` elements form slice `slice`.
  // The split point is rounded to 16 bytes so vector accesses stay aligned.
  CCF_HD int64_t sliceBegin(int64_t length, int32_t slice) const {
    if (slice == 0) return 0;
    const int64_t align = elemBytes >= 16 ? 1 : 16 / elemBytes;
    int64_t half = (length + 1) / 2;
    half = semantics::roundUp(half, align);
    return half < length ? half : length;
  }
  CCF_HD int64_t sliceEnd(int64_t length, int32_t slice) const {
    return slice + 1 >= slicesPerTransfer ? length : sliceBegin(length, slice + 1);
  }
  CCF_HD static int64_t linesFor(int64_t bytes) { return semantics::ceilDiv<int64_t>(bytes, 8) * 2; }
};

// Builds the tiling of a call; `tileBytes` is the protocol's tile (or an override), `transfersOverride`
// replaces the protocol's transfers in flight per connection (Simple 2, LL 8) when positive,
// `maxStepCount` (the largest cnt of a sending or receiving step) bounds the FIFO slot size.
inline Tiling makeTiling(int64_t chunkElems, int32_t elemBytes, int64_t tileBytes, ir::Protocol protocol,
                         int32_t transfersOverride, int32_t maxStepCount = semantics::kMaxStepCount) {
  Tiling t;
  t.chunkElems = chunkElems;
  t.elemBytes = elemBytes;
  t.tileElems = tileBytes / elemBytes;
  t.tiles = chunkElems <= 0 ? 0 : semantics::ceilDiv(chunkElems, t.tileElems);
  t.maxAllowedCount = semantics::maxAllowedCount(chunkElems * elemBytes, tileBytes);
  t.lowLatency = protocol != ir::Protocol::Simple;
  t.slicesPerTransfer = semantics::unitsPerTransfer(protocol);
  t.slotsInFlight =
      transfersOverride > 0 ? transfersOverride * t.slicesPerTransfer : semantics::unitsInFlight(protocol);
  const int32_t chunksPerTransfer =
      maxStepCount < t.maxAllowedCount ? (maxStepCount < 1 ? 1 : maxStepCount) : t.maxAllowedCount;
  const int64_t maxTransfer = chunksPerTransfer * (chunkElems < t.tileElems ? chunkElems : t.tileElems);
  if (t.lowLatency) {
    t.sliceSlotLines = Tiling::linesFor(maxTransfer * elemBytes);
  } else {
    t.sliceSlotElems = t.sliceEnd(maxTransfer, 0);  // the first slice is the larger one
    if (t.sliceSlotElems < 1) t.sliceSlotElems = 1;
  }
  return t;
}

}  // namespace ccforge::runtime
