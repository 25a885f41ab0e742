// The MSCCL-IR interpreter, written once for every backend. Each thread block is a resumable
// state machine: advance() runs the tb's instruction list once per tile iteration, transfer by
// transfer and slice by slice, until the tb finishes (true) or must wait (false; the cursor says
// for what). The backend B supplies the block's threads, memory accesses, fences and atomics:
// on the GPU a CUDA block calls advance() until it returns true; on the CPU a scheduler parks a
// blocked tb until the word it waits on changes.
//
// Semantics follow msccl-ir.md §2: dependencies wait for (launch, tile, step) flags published
// after hasdep steps; a step with cnt c issues ceil(c / maxAllowedCount) transfers; Simple
// transfers are 2 slices with 4 slices in flight per connection, LL/LL128 transfers 1 slot of
// flag-carrying lines with 8 in flight.
#pragma once

#include <cstdint>

#include "semantics/host_device.hpp"
#include "runtime/core/launch_state.hpp"
#include "runtime/core/reduce_copy.hpp"
#include "semantics/step_kinds.hpp"

namespace ccforge::runtime {

enum class WaitKind : uint8_t { None, Dependency, Data, Slot };

struct TbCursor {
  int64_t tile = 0;
  int32_t step = 0;           // index in the tb's step list
  int32_t transfer = 0;       // transfer (group of consecutive chunks) within the step
  int32_t slice = 0;          // slice within the transfer
  int32_t waitsMetUntil = 0;  // steps before this index (in this tile) have their dependencies met
  uint64_t sendSeq = 0;       // slices sent on the send connection, counted across launches
  uint64_t recvSeq = 0;       // slices consumed from the receive connection
  uint64_t progress = 0;      // grows whenever the tb moves on
  WaitKind waitKind = WaitKind::None;
  const uint64_t* waitWord = nullptr;  // blocked until *waitWord >= waitTarget (the park condition)
  uint64_t waitTarget = 0;
};

// Starts a launch: FIFO positions continue from where the previous launch left them.
template <class B>
CCF_HD TbCursor startCursor(B& b, const LaunchState& s, int32_t globalTb) {
  TbCursor c;
  const TbTable& t = s.program.tbs[globalTb];
  if (t.sendConnection >= 0) c.sendSeq = b.loadOwn(s.connections[t.sendConnection].tail);
  if (t.recvConnection >= 0) c.recvSeq = b.loadOwn(s.connections[t.recvConnection].head);
  return c;
}

CCF_HD bool blockOn(TbCursor& c, WaitKind kind, const uint64_t* word, uint64_t target) {
  c.waitKind = kind;
  c.waitWord = word;
  c.waitTarget = target;
  return false;
}

// The end of the run of waits starting at step `from` (which has a dependency): the bare waits
// (nops) and the step they precede, whose wait is the run's last.
CCF_HD int32_t waitRunEnd(const LaunchState& s, const TbTable& tb, int32_t from) {
  int32_t end = from;
  while (end < tb.stepCount) {
    const ExecStep& st = s.program.steps[tb.firstStep + end];
    if (st.dependencyTb < 0) break;
    ++end;
    if (st.kind != ir::OpType::Nop) break;
  }
  return end;
}

// Polls the dependencies of steps [c.step, end) together, a thread per flag, so that a run of
// waits costs one round trip rather than one per wait. The flags only grow within a launch, so
// waiting for all at once is waiting for each in turn.
template <class B>
CCF_HD bool waitsMet(B& b, const LaunchState& s, const TbTable& tb, int32_t end, TbCursor& c) {
  const uint64_t* unmet = nullptr;
  uint64_t unmetTarget = 0;
  for (int32_t i = c.step + b.thread(); i < end && !unmet; i += b.threads()) {
    const ExecStep& w = s.program.steps[tb.firstStep + i];
    const uint64_t* flag = flagOf(s, w.dependencyTb);
    const uint64_t target = flagValue(s.epoch, c.tile, w.dependencyStep);
    if (!b.acquireAtLeast(flag, target)) {
      unmet = flag;
      unmetTarget = target;
    }
  }
  if (b.allThreads(unmet == nullptr)) return true;
  if (!unmet) {  // another thread's flag: the step's own stands for the run
    const ExecStep& st = s.program.steps[tb.firstStep + c.step];
    unmet = flagOf(s, st.dependencyTb);
    unmetTarget = flagValue(s.epoch, c.tile, st.dependencyStep);
  }
  return blockOn(c, WaitKind::Dependency, unmet, unmetTarget);
}

// cpy, re, cmp and nop: never block; run every transfer of the step at once.
template <class B, class T, class Op>
CCF_HD void runLocalStep(B& b, const LaunchState& s, const RankMemory& mem, const ExecStep& st, int64_t tile) {
  const semantics::StepValue value = semantics::stepValue(st.kind);
  if (value == semantics::StepValue::None) return;
  const Tiling& t = s.tiling;
  const int64_t e = t.elemBytes;
  if (value == semantics::StepValue::Computed) {  // product elements of the step's chunks in this tile
    for (int32_t group = 0; group < t.transfersFor(st.count); ++group) {
      const int64_t first = t.transferStart(st.dstOffset, group, tile);
      computeRange<B, T>(b, mem.compute, mem.buffers[st.dstBuffer] + first * e, first,
                         t.transferLength(st.count, group, tile));
    }
    b.barrier();
    return;
  }
  for (int32_t group = 0; group < t.transfersFor(st.count); ++group) {
    const int64_t length = t.transferLength(st.count, group, tile);
    Operands o;
    unsigned char* dst = mem.buffers[st.dstBuffer] + t.transferStart(st.dstOffset, group, tile) * e;
    o.out[0] = dst;
    o.outputs = 1;
    if (value == semantics::StepValue::Source) {
      o.in[0] = mem.buffers[st.srcBuffer] + t.transferStart(st.srcOffset, group, tile) * e;
      o.inputs = 1;
    } else {  // DestinationPlusSource: dst = dst (op) every fused source
      o.in[0] = dst;
      o.inputs = 1;
      for (int32_t k = 0; k < st.reduceSourceCount; ++k) {
        const int32_t offset = s.program.reduceSourceOffsets[st.firstReduceSource + k];
        o.in[o.inputs++] = mem.buffers[st.srcBuffer] + t.transferStart(offset, group, tile) * e;
      }
    }
    reduceCopy<B, T, Op>(b, o, length);
  }
  b.barrier();  // the step's writes are complete before anything the tb does next
}

// One slice of a send/receive step; false when it must wait (cursor says why).
template <class B, class T, class Op>
CCF_HD bool runSlice(B& b, const LaunchState& s, const RankMemory& mem, const TbTable& tb, const ExecStep& st,
                     TbCursor& c) {
  const Tiling& t = s.tiling;
  const int64_t e = t.elemBytes;
  const bool receiving = semantics::receives(st.kind);
  const bool sending = semantics::sends(st.kind);
  const int64_t length = t.transferLength(st.count, c.transfer, c.tile);
  const int64_t begin = t.sliceBegin(length, c.slice);
  const int64_t elems = t.sliceEnd(length, c.slice) - begin;
  const ConnectionMemory* rc = receiving ? &s.connections[tb.recvConnection] : nullptr;
  const ConnectionMemory* sc = sending ? &s.connections[tb.sendConnection] : nullptr;
  const int64_t slots = t.slotsInFlight;
  unsigned char* recvSlot =
      receiving ? rc->fifo + static_cast<int64_t>(c.recvSeq % slots) * s.slotStrideBytes : nullptr;
  unsigned char* sendSlot = sending ? sc->fifo + static_cast<int64_t>(c.sendSeq % slots) * s.slotStrideBytes : nullptr;

  if (receiving) {
    const bool ready = t.lowLatency ? linesReady(b, reinterpret_cast<const uint64_t*>(recvSlot),
                                                 Tiling::linesFor(elems * e), static_cast<uint32_t>(c.recvSeq + 1))
                                    : b.pollAtLeast(rc->tail, c.recvSeq + 1);
    if (!ready) return blockOn(c, WaitKind::Data, rc->tail, c.recvSeq + 1);
  }
  if (sending && c.sendSeq + 1 > static_cast<uint64_t>(slots)) {
    const uint64_t freed = c.sendSeq + 1 - slots;  // the slice that used this slot must be consumed
    if (!b.pollAtLeast(sc->head, freed)) return blockOn(c, WaitKind::Slot, sc->head, freed);
  }

  Operands local;
  if (semantics::readsLocalSource(st.kind))
    local.in[local.inputs++] =
        mem.buffers[st.srcBuffer] + (t.transferStart(st.srcOffset, c.transfer, c.tile) + begin) * e;
  if (semantics::writesLocalDestination(st.kind))
    local.out[local.outputs++] =
        mem.buffers[st.dstBuffer] + (t.transferStart(st.dstOffset, c.transfer, c.tile) + begin) * e;
  if (t.lowLatency) {
    reduceCopyLines<B, T, Op>(b, receiving ? reinterpret_cast<const uint64_t*>(recvSlot) : nullptr, local,
                              sending ? reinterpret_cast<uint64_t*>(sendSlot) : nullptr,
                              static_cast<uint32_t>(c.sendSeq + 1), elems);
  } else {
    Operands o;
    if (receiving) o.in[o.inputs++] = recvSlot;
    for (int i = 0; i < local.inputs; ++i) o.in[o.inputs++] = local.in[i];
    for (int i = 0; i < local.outputs; ++i) o.out[o.outputs++] = local.out[i];
    if (sending) o.out[o.outputs++] = sendSlot;
    reduceCopy<B, T, Op>(b, o, elems);
  }

  b.barrier();  // every thread is done with both slots
  if (receiving) b.releaseStore(rc->head, ++c.recvSeq);
  if (sending) {
    if (t.lowLatency)
      b.progressStore(sc->tail, ++c.sendSeq);  // lines carry their own flags
    else
      b.releaseStore(sc->tail, ++c.sendSeq);
  }
  return true;
}

// Runs thread block `globalTb` as far as it can. True when it has finished the launch.
template <class B, class T, class Op>
CCF_HD bool advance(B& b, const LaunchState& s, int32_t globalTb, TbCursor& c) {
  const TbTable& tb = s.program.tbs[globalTb];
  const RankMemory& mem = s.ranks[tb.rank];
  const Tiling& t = s.tiling;
  while (c.tile < t.tiles) {
    while (c.step < tb.stepCount) {
      const ExecStep& st = s.program.steps[tb.firstStep + c.step];
      if (st.dependencyTb >= 0 && c.step >= c.waitsMetUntil) {
        const int32_t end = waitRunEnd(s, tb, c.step);
        if (!waitsMet(b, s, tb, end, c)) return false;
        c.waitsMetUntil = end;
      }
      if (semantics::receives(st.kind) || semantics::sends(st.kind)) {
        const int32_t transfers = t.transfersFor(st.count);
        while (c.transfer < transfers) {
          while (c.slice < t.slicesPerTransfer) {
            if (!runSlice<B, T, Op>(b, s, mem, tb, st, c)) return false;
            ++c.slice;
            ++c.progress;
          }
          c.slice = 0;
          ++c.transfer;
        }
      } else {
        runLocalStep<B, T, Op>(b, s, mem, st, c.tile);
      }
      if (st.publishes) b.releaseStore(flagOf(s, globalTb), flagValue(s.epoch, c.tile, st.flagStep));
      c.transfer = 0;
      ++c.step;
      ++c.progress;
    }
    c.step = 0;
    c.waitsMetUntil = 0;
    ++c.tile;
  }
  c.waitKind = WaitKind::None;
  return true;
}

}  // namespace ccforge::runtime
