// The obligations of a fused computation + collective program (docs/fused.md, "Obligations"),
// on top of the ordinary checks (compute writes join the race check; the postcondition is the
// collective's over the produced values; deadlock covers every persistent block):
//   fused.partition       the compute steps' row ranges partition each rank's product exactly;
//   fused.double-produce  no product chunk is produced twice;
//   fused.unproduced-read every product chunk a step reads has a producer;
//   fused.producer-order  its producer happens-before every step that reads it.
// Declarations and read-only operands are the loader's (fused.declaration, fused.operand-write).
#pragma once

#include "semantics/loaded_program.hpp"
#include "verify/findings.hpp"
#include "verify/step_graph.hpp"

namespace ccforge::verify {

// fused.partition (Check::Postcondition).
void checkProductPartition(const semantics::LoadedProgram& program, Findings& findings);
// fused.double-produce, fused.unproduced-read, fused.producer-order (Check::Races).
// `searchBudget` bounds the happens-before search; returns false when it ran out.
bool checkProducers(const semantics::LoadedProgram& program, const StepGraph& graph, uint64_t& searchBudget,
                    Findings& findings);

}  // namespace ccforge::verify
