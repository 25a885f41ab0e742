#include "codegen/dependencies.hpp"

#include <algorithm>
#include <map>

namespace ccforge::codegen {

void insertDependencies(Schedule& s, const InstructionDag& dag) {
  // Pass 1: the waits of every instruction, as (thread block, instruction position) pairs.
  std::vector<std::vector<std::pair<int32_t, int32_t>>> waits(s.tbs.size());
  std::vector<std::vector<int32_t>> waitStart(s.tbs.size());
  for (size_t tb = 0; tb < s.tbs.size(); ++tb) {
    const ScheduledTb& t = s.tbs[tb];
    std::map<int32_t, int32_t> waited;  // other thread block -> highest position already waited for
    std::map<int32_t, int32_t> mine;    // this instruction's waits
    auto& list = waits[tb];
    auto& start = waitStart[tb];
    for (int32_t v : t.ops) {
      mine.clear();
      for (int32_t p : dag.preds(v)) {
        const int32_t ptb = s.tbOf[static_cast<size_t>(p)];
        if (ptb == static_cast<int32_t>(tb)) continue;
        const int32_t pos = s.position[static_cast<size_t>(p)];
        auto it = waited.find(ptb);
        if (it != waited.end() && it->second >= pos) continue;
        auto [m, inserted] = mine.emplace(ptb, pos);
        if (!inserted) m->second = std::max(m->second, pos);
      }
      start.push_back(static_cast<int32_t>(list.size()));
      for (const auto& [ptb, pos] : mine) {
        list.emplace_back(ptb, pos);
        waited[ptb] = pos;
      }
    }
    start.push_back(static_cast<int32_t>(list.size()));
  }
  // Pass 2: step index of every instruction once the nops are in.
  std::vector<std::vector<int32_t>> stepOf(s.tbs.size());
  for (size_t tb = 0; tb < s.tbs.size(); ++tb) {
    int32_t step = 0;
    for (size_t i = 0; i < s.tbs[tb].ops.size(); ++i) {
      const int32_t n = waitStart[tb][i + 1] - waitStart[tb][i];
      step += std::max(n - 1, 0);
      stepOf[tb].push_back(step++);
    }
  }
  // Pass 3: the steps.
  for (size_t tb = 0; tb < s.tbs.size(); ++tb) {
    ScheduledTb& t = s.tbs[tb];
    t.steps.clear();
    for (size_t i = 0; i < t.ops.size(); ++i) {
      for (int32_t w = waitStart[tb][i]; w < waitStart[tb][i + 1]; ++w) {
        const auto [ptb, pos] = waits[tb][static_cast<size_t>(w)];
        const bool last = w + 1 == waitStart[tb][i + 1];
        t.steps.push_back(ScheduledStep{last ? t.ops[i] : -1, ptb,
                                        stepOf[static_cast<size_t>(ptb)][static_cast<size_t>(pos)], false});
      }
      if (waitStart[tb][i] == waitStart[tb][i + 1]) t.steps.push_back(ScheduledStep{t.ops[i], -1, -1, false});
    }
  }
  for (ScheduledTb& t : s.tbs)
    for (const ScheduledStep& st : t.steps)
      if (st.depTb >= 0) s.tbs[static_cast<size_t>(st.depTb)].steps[static_cast<size_t>(st.depStep)].hasdep = true;
}

}  // namespace ccforge::codegen
