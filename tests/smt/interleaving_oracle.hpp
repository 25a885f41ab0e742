// The outputs a program can compute over every interleaving of its access points, found by
// exhaustive search over the states reachable point by point (small programs only): the
// independent judge of which races change results. Same point model as the data encoding
// (docs/smt.md): begin, a read and a write per chunk, end; strict happens-before puts end
// before begin; a send's begin, end and chunk reads precede its receive's.
#pragma once

#include <optional>
#include <set>
#include <vector>

#include "verify/smt/data_semantics.hpp"
#include "verify/smt/sync_graph.hpp"

namespace ccforge::test {

// nullopt when the program has more than 64 points or the search exceeds `maxStates`.
std::optional<std::set<std::vector<semantics::ChunkValues::Id>>> everyOutcome(const verify::smt::DataSetting& setting,
                                                                              const verify::smt::SyncGraph& graph,
                                                                              size_t maxStates = 2'000'000);

}  // namespace ccforge::test
