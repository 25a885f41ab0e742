// Joint operator and tensor fusion, DisCo's Algorithm 1 (Yi et al., TPDS 2022) on ccforge's
// simulator: a backtracking search over operator-fusion strategies whose every candidate is
// evaluated with the exact tensor-fusion program (tensor_fusion.hpp), so DisCo's third method
// (merging neighbouring AllReduces) is solved optimally inside each evaluation.
//
// A priority queue holds strategies by simulated iteration time, starting from no fusion (DisCo)
// and, unless the options say no fusion only, from the XLA-style default fusion
// (greedyElementwiseFusion). Each step pops the cheapest and, for each method (fuse with a
// producer; fuse by duplicating it), applies that method n times (n uniform in [1, beta];
// DisCo's [0, beta]) at valid places chosen at random; a new strategy within alpha x best joins
// the queue. The search stops after `patience` steps without improvement, at `maxSteps`, or when
// the queue is empty. Seeded: the same inputs give the same result.
#pragma once

#include <cstdint>

#include "plan/comm_cost.hpp"
#include "plan/iteration.hpp"
#include "plan/op_fusion.hpp"
#include "plan/workload.hpp"

namespace ccforge::plan {

struct SearchOptions {
  double alpha = 1.05;
  int32_t beta = 10;
  int64_t patience = 1000;    // steps without improvement
  int64_t maxSteps = 50'000;  // hard limit
  uint64_t seed = 1;
  // The paper starts from no fusion only; the default fusion as a second start guarantees a
  // result no worse than it on any workload.
  bool alsoStartFromDefault = true;
};

struct SearchResult {
  FusionStrategy strategy;
  double iterationUs = 0;
  int64_t steps = 0;  // candidates evaluated
  int64_t improvements = 0;
  bool hitStepLimit = false;
};

// Throws std::invalid_argument for alpha < 1, beta < 1, patience < 1 or maxSteps < 1.
SearchResult discoSearch(const Workload& workload, const FusedOpEstimator& estimator, const CommCost& cost,
                         const SearchOptions& options);

// One strategy's simulated iteration time with the optimal tensor fusion.
double evaluateStrategy(const Workload& workload, const std::vector<std::vector<int32_t>>& consumers,
                        const FusionStrategy& strategy, const FusedOpEstimator& estimator, const CommCost& cost);

}  // namespace ccforge::plan
