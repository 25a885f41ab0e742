// Thread-block assignment (the MSCCLang paper's greedy). Instructions are taken in one global
// topological order, earliest depth first and, among equals, the longest way to the end first;
// a receive is taken only when it is the next one its connection delivers, so both ends of
// every connection see transfers in the same order. Each instruction goes to the thread block
// of its connections (one per send peer, receive peer and channel; a lone sender and a lone
// receiver with the same peer share one); local copies and reductions go to the thread block
// of their rank that becomes free earliest.
//
// Deadlock freedom. Every thread block runs its instructions in the global order, so if no
// connection ever holds more unreceived transfers than the runtime's slots at any point of that
// order, the order itself is an execution the runtime can follow and, the system being a Kahn
// network, every execution completes. A send that would overfill its connection waits; a send
// larger than the slots is taken only when its receivers can follow it at once, as a pipeline.
// When nothing else is left, an overfilling send is taken anyway and its chain is reported in
// `overfull`, so that the caller can move it to channels of its own and try again.
#pragma once

#include <cstdint>
#include <vector>

#include "codegen/channels.hpp"
#include "codegen/instruction_dag.hpp"
#include "dsl/program.hpp"

namespace ccforge::codegen {

struct ScheduledStep {
  int32_t instr = -1;  // -1: a nop carrying a dependency
  int32_t depTb = -1;  // index into Schedule::tbs
  int32_t depStep = -1;
  bool hasdep = false;
};

struct ScheduledTb {
  int32_t rank = 0;
  int32_t send = -1;
  int32_t recv = -1;
  int32_t channel = 0;
  std::vector<int32_t> ops;          // instructions in program order
  std::vector<ScheduledStep> steps;  // ops with the dependency nops, filled by insertDependencies
  int32_t freeAt = 0;                // depth after its last instruction
  int32_t planned = 0;               // instructions it will hold (its connections' and local ones)
};

struct Schedule {
  std::vector<ScheduledTb> tbs;
  std::vector<std::vector<int32_t>> tbsOfRank;
  std::vector<int32_t> tbOf;      // per instruction
  std::vector<int32_t> position;  // per instruction: index in its thread block's ops
  std::vector<int32_t> overfull;  // first instruction of every chain that had to overfill a connection
};

// When every rank of a ring starts chains on the same connection, sends that start chains can
// fill its slots before any forwarded transfer gets one, and the ring stops (msccl-tools'
// hierarchical_allreduce.py 8 128 1: 128 chains start at each rank of every node ring, on 32
// channels). LeaveSlotForForwards lets a send that starts a chain take a slot only while one
// stays free, or on an idle connection: a forward can always move on.
enum class Injection : uint8_t { Free, LeaveSlotForForwards };

// Throws CompileError when no order can keep the connections' FIFO order.
Schedule assignThreadBlocks(const InstructionDag& dag, ChannelAssignment& channels, const dsl::Program& program,
                            int32_t cap, int32_t slots, Injection injection);

}  // namespace ccforge::codegen
