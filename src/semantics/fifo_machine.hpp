// The synchronisation of a loaded program as a state machine over FIFO units (a Simple slice,
// an LL/LL128 step; semantics/protocol.hpp): every thread block runs its steps in order once per
// tile iteration; a step first passes its flag waits, then moves its units one by one, each
// receiving one unit (it needs data) and sending one (it needs a free slot); `cpy` and `re` move
// nothing, and after a step with hasdep the block publishes (tile, step number).
//
// Every blocking condition is monotone, so the system is a bounded-buffer Kahn network. The same
// machine is driven three ways: the verifier's deadlock search runs every enabled thread block
// until none is (verify/kahn_simulation), the SMT witness replay takes moves in the order a model
// gives (verify/smt/replay), and the timed simulation starts units as the network lets it
// (sim/program_run), splitting a unit into start (data present, slot free: the unit becomes
// visible downstream) and finish (the incoming unit is consumed, freeing its slot).
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "semantics/loaded_program.hpp"
#include "semantics/protocol.hpp"
#include "semantics/step_kinds.hpp"

namespace ccforge::semantics {

struct MachineConfig {
  int64_t tiles = 1;                        // tile iterations of the call
  int32_t maxAllowedCount = kMaxStepCount;  // chunks per transfer
  int32_t unitsPerTransfer = 1;
  int32_t unitsInFlight = 8;  // units a sender may be ahead of its receiver, per connection
};
// The runtime's configuration for a protocol; `transfers` overrides its transfers in flight.
MachineConfig machineConfig(ir::Protocol protocol, int64_t tiles, int32_t maxAllowedCount, int32_t transfers = 0);

enum class Need : uint8_t {
  Nothing,   // the thread block can move now
  Flag,      // a flag of another thread block (on: that tb)
  Data,      // a unit on its receive connection (on: the connection)
  Slot,      // a free slot on its send connection (on: the connection)
  Finished,  // done with every tile iteration
  Busy,      // a started unit is not finished yet (timed driver)
};

struct TbCursor {
  int64_t tile = 0;
  int32_t step = 0;   // index in the thread block
  uint32_t wait = 0;  // flag waits of the step already passed
  int32_t unit = 0;   // units of the step already moved
  bool busy = false;  // a unit is started
};

class FifoMachine {
 public:
  FifoMachine(const LoadedProgram& program, const MachineConfig& config);

  const LoadedProgram& program() const { return p_; }
  const MachineConfig& config() const { return c_; }
  const TbCursor& cursor(int32_t tb) const { return cursor_[tb]; }
  uint64_t produced(int32_t connection) const { return produced_[connection]; }
  uint64_t consumed(int32_t connection) const { return consumed_[connection]; }
  // (tile, step number) of the flag the thread block last published, encoded; -1 for none.
  int64_t flag(int32_t tb) const { return flag_[tb]; }
  static int64_t flagValue(int64_t tile, int32_t step) { return tile * kFlagStride + step; }
  static int64_t flagTile(int64_t value) { return value / kFlagStride; }
  static int32_t flagStep(int64_t value) { return static_cast<int32_t>(value % kFlagStride); }
  uint64_t unitsMoved() const { return moved_; }
  // Units a step moves in this configuration (0 for steps that do not communicate).
  int32_t unitsOf(const LoadedStep& st) const {
    return communicates(st.type) ? transfersOf(st.cnt, c_.maxAllowedCount) * c_.unitsPerTransfer : 0;
  }
  int32_t unitsOf(uint32_t step) const { return moves_[step].units; }

  struct Requirement {
    Need need = Need::Nothing;
    int32_t on = -1;         // Flag: the thread block; Data/Slot: the connection
    int64_t flagNeeded = 0;  // Flag: the value waited for
  };
  // What thread block `tb` needs before its next move.
  Requirement next(int32_t tb) const {
    const TbCursor& c = cursor_[tb];
    if (c.busy) return {Need::Busy};
    if (c.tile >= c_.tiles || p_.stepsOf(tb) == 0) return {Need::Finished};
    const uint32_t s = p_.firstStep(tb) + static_cast<uint32_t>(c.step);
    const Move& st = moves_[s];
    if (c.wait < st.waitCount) return waitBlocker(c, p_.waitsBegin(s)[c.wait]);
    if (c.unit < st.units) return unitBlocker(tb, st);
    return {};
  }

  // Every move thread block `tb` can make now, atomically (the untimed drivers' fast path; the
  // same moves as repeated next() and take()): passes waits, completes local steps, moves units.
  // Calls observer.unitMoved(recvConnection, sendConnection) after each run of units (-1 for a side the
  // step lacks) and observer.published(tb) after each flag. Returns what stops it.
  template <class Observer>
  Requirement runUntilBlocked(int32_t tb, Observer& observer) {
    TbCursor& c = cursor_[tb];
    const int32_t nsteps = p_.stepsOf(tb);
    if (c.busy) return {Need::Busy};
    if (nsteps == 0) return {Need::Finished};
    while (c.tile < c_.tiles) {
      const uint32_t s = p_.firstStep(tb) + static_cast<uint32_t>(c.step);
      const Move& st = moves_[s];
      for (; c.wait < st.waitCount; ++c.wait)
        if (Requirement r = waitBlocker(c, p_.waitsBegin(s)[c.wait]); r.need != Need::Nothing) return r;
      const int32_t units = st.units;
      if (c.unit < units) {
        const int32_t in = st.receives ? p_.recvConnection(tb) : -1;
        const int32_t out = st.sends ? p_.sendConnection(tb) : -1;
        while (c.unit < units) {
          if (Requirement r = unitBlocker(tb, st); r.need != Need::Nothing) return r;
          // Every unit the connections let through now moves at once: moving them one by one,
          // each would find its data and its slot as the previous one left them.
          uint64_t n = static_cast<uint64_t>(units - c.unit);
          if (in >= 0) n = std::min(n, produced_[in] - consumed_[in]);
          if (out >= 0) n = std::min(n, static_cast<uint64_t>(c_.unitsInFlight) - (produced_[out] - consumed_[out]));
          if (out >= 0) produced_[out] += n;
          if (in >= 0) consumed_[in] += n;
          c.unit += static_cast<int32_t>(n);
          moved_ += n;
          observer.unitMoved(in, out);
        }
      }
      const bool publishes = st.publishes;
      completeStep(tb, st);
      if (publishes) observer.published(tb);
    }
    return {Need::Finished};
  }

  // The move next(tb) allowed: passes one flag wait, or completes a step that moves no (more)
  // units, or starts a unit (its outgoing unit becomes visible). Returns true when it started a
  // unit, which finish() completes.
  bool start(int32_t tb) {
    TbCursor& c = cursor_[tb];
    const uint32_t s = p_.firstStep(tb) + static_cast<uint32_t>(c.step);
    const Move& st = moves_[s];
    if (c.wait < st.waitCount) {
      ++c.wait;
      return false;
    }
    if (c.unit < st.units) {
      if (st.sends) ++produced_[p_.sendConnection(tb)];
      c.busy = true;
      return true;
    }
    completeStep(tb, st);
    return false;
  }
  void finish(int32_t tb) {
    TbCursor& c = cursor_[tb];
    const Move& st = moves_[p_.firstStep(tb) + static_cast<uint32_t>(c.step)];
    if (st.receives) ++consumed_[p_.recvConnection(tb)];
    c.busy = false;
    ++moved_;
    if (++c.unit == st.units) completeStep(tb, st);
  }
  // start() and, for a unit, finish() at once: the atomic move of the untimed drivers.
  void take(int32_t tb) {
    if (start(tb)) finish(tb);
  }

 private:
  static constexpr int64_t kFlagStride = int64_t{1} << 32;

  // What the machine reads of a step, in this configuration, packed: a large program's steps do
  // not fit the caches, and every move of a thread block reads its current step's.
  struct Move {
    int32_t units = 0;
    uint32_t waitCount = 0;
    int32_t flagStep = 0;
    bool receives = false, sends = false, publishes = false;
  };

  Requirement waitBlocker(const TbCursor& c, const FlagWait& w) const {
    const int64_t needed = flagValue(c.tile, w.step);
    if (flag_[w.tb] < needed) return {Need::Flag, w.tb, needed};
    return {};
  }
  Requirement unitBlocker(int32_t tb, const Move& st) const {
    if (st.receives) {
      const int32_t in = p_.recvConnection(tb);
      if (produced_[in] <= consumed_[in]) return {Need::Data, in};
    }
    if (st.sends) {
      const int32_t out = p_.sendConnection(tb);
      if (produced_[out] - consumed_[out] >= static_cast<uint64_t>(c_.unitsInFlight)) return {Need::Slot, out};
    }
    return {};
  }

  void completeStep(int32_t tb, const Move& st) {
    TbCursor& c = cursor_[tb];
    if (st.publishes) flag_[tb] = flagValue(c.tile, st.flagStep);
    c.wait = 0;
    c.unit = 0;
    if (++c.step == p_.stepsOf(tb)) {
      c.step = 0;
      ++c.tile;
    }
  }

  const LoadedProgram& p_;
  MachineConfig c_;
  std::vector<Move> moves_;
  std::vector<TbCursor> cursor_;
  std::vector<int64_t> flag_;
  std::vector<uint64_t> produced_, consumed_;
  uint64_t moved_ = 0;
};

}  // namespace ccforge::semantics
