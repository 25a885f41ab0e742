#include "plan/disco_search.hpp"

#include <map>
#include <random>
#include <set>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

namespace ccforge::plan {

double evaluateStrategy(const Workload& w, const std::vector<std::vector<int32_t>>& consumers, const FusionStrategy& s,
                        const FusedOpEstimator& estimator, const CommCost& cost) {
  ComputeSchedule schedule = computeSchedule(w, consumers, s, estimator);
  BucketPlan plan = optimalPartition(schedule.instance, cost);
  return std::max(schedule.computeEndUs, plan.finishUs);
}

SearchResult discoSearch(const Workload& w, const FusedOpEstimator& estimator, const CommCost& cost,
                         const SearchOptions& o) {
  if (!(o.alpha >= 1) || o.beta < 1 || o.patience < 1 || o.maxSteps < 1)
    throw std::invalid_argument("search needs alpha >= 1, beta >= 1, patience >= 1 and a step limit >= 1");
  const auto consumers = consumersOf(w);
  std::mt19937_64 rng(o.seed);  // the engine's sequence is fixed by the standard; no distributions
  auto uniform = [&](uint64_t n) { return n == 0 ? uint64_t{0} : rng() % n; };

  // A strategy's key: its two flag vectors as one string.
  auto key = [](const FusionStrategy& s) {
    std::string k(s.joinNext.begin(), s.joinNext.end());
    k.push_back('|');
    k.append(s.duplicate.begin(), s.duplicate.end());
    return k;
  };
  std::set<std::string> seen;
  // Queue ordered by (cost, insertion number) so that ties pop in a fixed order.
  std::map<std::pair<double, int64_t>, FusionStrategy> queue;
  int64_t inserted = 0;

  SearchResult r;
  std::vector<FusionStrategy> starts{FusionStrategy::none(w.ops.size())};
  if (o.alsoStartFromDefault) starts.push_back(greedyElementwiseFusion(w));
  bool first = true;
  for (const FusionStrategy& start : starts) {
    if (!seen.insert(key(start)).second) continue;
    double value = evaluateStrategy(w, consumers, start, estimator, cost);
    if (first || value < r.iterationUs) {
      first = false;
      r.strategy = start;
      r.iterationUs = value;
    }
    queue.emplace(std::make_pair(value, inserted++), start);
  }
  int64_t sinceImprovement = 0;
  const size_t n = w.ops.size();

  while (!queue.empty() && sinceImprovement < o.patience) {
    FusionStrategy base = queue.begin()->second;
    queue.erase(queue.begin());
    for (int method = 0; method < 2 && sinceImprovement < o.patience; ++method) {
      if (r.steps >= o.maxSteps) {
        r.hitStepLimit = true;
        return r;
      }
      FusionStrategy s = base;
      // At least once: DisCo's n = 0 returns the parent, which only spends a step of the patience,
      // and a parent whose children are all itself ends its line of the search.
      uint64_t times = 1 + uniform(static_cast<uint64_t>(o.beta));
      for (uint64_t t = 0; t < times; ++t) {
        std::vector<size_t> valid;
        for (size_t i = 0; i + 1 < n; ++i)
          if (method == 0 ? canJoin(w, consumers, s, i, &estimator) : canDuplicate(w, consumers, s, i))
            valid.push_back(i);
        if (valid.empty()) break;
        size_t i = valid[uniform(valid.size())];
        if (method == 0) {
          s.joinNext[i] = 1;
          s.duplicate[i] = 0;
        } else {
          s.duplicate[i] = 1;
        }
      }
      if (!seen.insert(key(s)).second) {
        ++sinceImprovement;
        ++r.steps;
        continue;
      }
      double value = evaluateStrategy(w, consumers, s, estimator, cost);
      ++r.steps;
      if (value < r.iterationUs) {
        r.iterationUs = value;
        r.strategy = s;
        ++r.improvements;
        sinceImprovement = 0;
      } else {
        ++sinceImprovement;
      }
      if (value <= o.alpha * r.iterationUs) queue.emplace(std::make_pair(value, inserted++), std::move(s));
    }
  }
  return r;
}

}  // namespace ccforge::plan
