// What an AllReduce of a bucket costs: one curve per candidate algorithm (affine alpha + beta x,
// or a table of simulated times), and the minimum over them, which is what makes tensor fusion
// choose the algorithm per bucket (docs/plan.md).
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace ccforge::plan {

struct AlgorithmCurve {
  std::string name;
  std::string irFile;  // the MSCCL-IR file the curve was simulated from or written to, if any
  // Affine when `table` is empty: alphaUs + usPerByte * bytes.
  double alphaUs = 0;
  double usPerByte = 0;
  // Otherwise (bytes ascending, time in µs): linear between points, the first point's time
  // below it, the last two points' slope beyond the last.
  std::vector<std::pair<uint64_t, double>> table;

  double timeUs(uint64_t bytes) const { return timeUsIn(bytes, segment(bytes)); }
  bool nonDecreasing() const;
  // The table segment holding `bytes`: 0 at or below the first point, k when
  // table[k-1] < bytes <= table[k], table.size() beyond the last. timeUsIn computes the time
  // from it (timeUs(x) == timeUsIn(x, segment(x)), bit for bit).
  size_t segment(uint64_t bytes) const;
  double timeUsIn(uint64_t bytes, size_t segment) const;
};

class CommCost {
 public:
  CommCost() = default;
  // Throws std::invalid_argument for no curves, a negative or non-finite value, or a table
  // whose sizes do not ascend.
  explicit CommCost(std::vector<AlgorithmCurve> curves);

  struct Choice {
    double timeUs = 0;
    int32_t algorithm = -1;  // index into curves(); ties go to the lower index
  };
  // The cheapest curve at `bytes`. Curves nowhere cheaper than another (no smaller anywhere, and
  // not earlier in the list when equal) are set aside when the cost is built: they never win.
  Choice best(uint64_t bytes) const;
  double timeUs(uint64_t bytes) const { return best(bytes).timeUs; }
  // Every curve is non-decreasing in the size: a bigger bucket never costs less. The tensor
  // fusion program then prunes; otherwise it tries every split.
  bool monotone() const { return monotone_; }
  const std::vector<AlgorithmCurve>& curves() const { return curves_; }
  const std::vector<int32_t>& usefulCurves() const { return useful_; }
  // The same cost restricted to one algorithm (e.g. ring only), or to the curves whose name
  // starts with `prefix` (throws std::invalid_argument when none does).
  CommCost only(int32_t algorithm) const;
  CommCost onlyNamed(const std::string& prefix) const;

  // Evaluates best(x).timeUs for sizes that do not decrease between reset()s, walking the
  // tables instead of searching them: the tensor-fusion program's inner loop. Same results.
  class Cursor {
   public:
    explicit Cursor(const CommCost& cost) : cost_(&cost), segments_(cost.useful_.size(), 0) {}
    void reset() { std::fill(segments_.begin(), segments_.end(), 0); }
    double timeUs(uint64_t bytes);

   private:
    const CommCost* cost_;
    std::vector<size_t> segments_;
  };

 private:
  std::vector<AlgorithmCurve> curves_;
  std::vector<int32_t> useful_;              // the curves best() compares, ascending
  std::vector<std::vector<double>> slopes_;  // per curve, per table segment (index 0 unused)
  bool monotone_ = true;
};

// Literature presets (docs/plan.md names their sources): the measured AllReduce of 8
// workers, T(x) = alpha + beta x for the whole message.
struct NetworkPreset {
  std::string name;
  std::string description;
  double alphaUs = 0;    // at 8 workers
  double usPerByte = 0;  // at 8 workers
};
const std::vector<NetworkPreset>& networkPresets();
// Throws std::invalid_argument naming the presets.
const NetworkPreset& findNetworkPreset(const std::string& name);

// Alpha-beta curves for `workers` ranks, from link parameters calibrated so that the ring at 8
// workers is the preset (a = alpha / 14 per step, b = beta * 8 / 14 per byte on a link):
//   ring                        2(p-1) a + 2(p-1)/p b x
//   recursive halving-doubling  2 ceil(log2 p) a + 2(p-1)/p b x   (Rabenseifner)
//   recursive doubling          ceil(log2 p) (a + b x)
// `ringOnly` gives the ring alone. Throws std::invalid_argument for workers < 2 or > kMaxWorkers.
inline constexpr int32_t kMaxWorkers = int32_t{1} << 16;
CommCost analyticCost(const NetworkPreset& preset, int32_t workers, bool ringOnly = false);

}  // namespace ccforge::plan
