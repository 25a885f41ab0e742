// One simulated call of a loaded MSCCL-IR program on a topology: the FIFO-unit machine
// (semantics/fifo_machine.hpp) decides what each thread block may do next, exactly as for the
// verifier; this driver adds time. A unit that sends is a fluid transfer over its connection's
// route (FluidNetwork); its first byte reaches the receiver one route latency after it starts
// and its last byte one latency after it ends. A forwarding unit (rcs, rrs, rrcs) starts once the
// first byte of its incoming unit is there and finishes once the last byte is (cut-through).
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "semantics/loaded_program.hpp"
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

struct RunResult {
  double timeUs = 0;
  int64_t iterations = 0;
  int64_t transfers = 0;
  std::vector<double> rankFinishUs;  // per rank: when its last thread block finished (no base latency)
};

class ProgramRun {
 public:
  // `routes[c]` is the route of program.connections()[c].
  ProgramRun(const semantics::LoadedProgram& program, const topo::Topology& topology, const CostModel& model,
             std::vector<topo::Route> routes);

  // One call moving `bytes` (nccl-tests' size). Throws SimulationViolation or SimulationLimit.
  RunResult run(uint64_t bytes, uint64_t eventLimit) const;

 private:
  const semantics::LoadedProgram& program_;
  const topo::Topology& topology_;
  CostModel model_;
  std::vector<topo::Route> routes_;
};

}  // namespace ccforge::sim
