// One simulated call of an MSCCL-IR program on a topology (msccl-ir.md §2): every thread
// block runs its steps in order once per tile iteration; sends wait for a free FIFO slot,
// receives for the data, steps with a dependency for the flag of the step they name.
// Transfers move as fluids over their routes (FluidNetwork).
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "ir/model.hpp"
#include "sim/cost_model.hpp"
#include "topology/routes.hpp"

namespace ccforge::sim {

// The program cannot run as written: it deadlocks, or paired transfers disagree in size.
class SimulationViolation : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The simulation needed more events than allowed.
class SimulationLimit : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A connection (sender rank, receiver rank, channel) and how its transfers travel.
struct Connection {
  int32_t sender = 0;
  int32_t receiver = 0;
  int32_t channel = 0;
  topo::Route route;
};

// Per thread block, indexes into the connection list (-1 when the block has no peer).
struct BlockConnections {
  int32_t send = -1;
  int32_t recv = -1;
};

struct RunResult {
  double timeUs = 0;
  int64_t iterations = 0;
  int64_t transfers = 0;
};

class ProgramRun {
 public:
  // `blocks[rank][tb]`; the program must already be checked for consistency (simulate.cpp).
  ProgramRun(const ir::Algorithm& algorithm, const topo::Topology& topology, const CostModel& model,
             std::vector<Connection> connections, std::vector<std::vector<BlockConnections>> blocks);

  // One call moving `bytes` (nccl-tests' size). Throws SimulationViolation or SimulationLimit.
  RunResult run(double bytes, uint64_t eventLimit) const;

 private:
  const ir::Algorithm& algorithm_;
  const topo::Topology& topology_;
  CostModel model_;
  std::vector<Connection> connections_;
  std::vector<std::vector<BlockConnections>> blocks_;
};

}  // namespace ccforge::sim
