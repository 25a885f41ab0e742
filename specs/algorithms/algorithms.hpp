// The library's programs, one per file; the parameters each reads are listed in library.cpp.
#pragma once

#include "library.hpp"

namespace ccforge::algorithms {

class Rings;

dsl::Program ringAllReduce(const Arguments& a, ir::Protocol protocol);
dsl::Program ringAllReduceOn(const Arguments& a, const Rings& rings, ir::Protocol protocol);
dsl::Program hierarchicalAllReduce(const Arguments& a, ir::Protocol protocol);
dsl::Program allPairsAllReduce(const Arguments& a, ir::Protocol protocol);
dsl::Program recursiveHalvingDoublingAllReduce(const Arguments& a, ir::Protocol protocol);
dsl::Program ringAllGather(const Arguments& a, ir::Protocol protocol);
dsl::Program ringAllGatherOn(const Arguments& a, const Rings& rings, ir::Protocol protocol);
dsl::Program allPairsAllGather(const Arguments& a, ir::Protocol protocol);
dsl::Program recursiveDoublingAllGather(const Arguments& a, ir::Protocol protocol);
dsl::Program ringReduceScatter(const Arguments& a, ir::Protocol protocol);
dsl::Program ringReduceScatterOn(const Arguments& a, const Rings& rings, ir::Protocol protocol);
dsl::Program allPairsAllToAll(const Arguments& a, ir::Protocol protocol);
dsl::Program twoStepAllToAll(const Arguments& a, ir::Protocol protocol);
dsl::Program threeStepAllToAll(const Arguments& a, ir::Protocol protocol);
dsl::Program allToNext(const Arguments& a, ir::Protocol protocol);
dsl::Program binomialBroadcast(const Arguments& a, ir::Protocol protocol);
dsl::Program binomialReduce(const Arguments& a, ir::Protocol protocol);

}  // namespace ccforge::algorithms
