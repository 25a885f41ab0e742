#include "plan/comm_cost.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

namespace ccforge::plan {

size_t AlgorithmCurve::segment(uint64_t bytes) const {
  size_t k = 0;
  while (k < table.size() && bytes > table[k].first) ++k;
  return k;
}

namespace {

// The slope of table segment k (1 <= k < size), the one formula every evaluation uses.
double segmentSlope(const std::vector<std::pair<uint64_t, double>>& t, size_t k) {
  return (t[k].second - t[k - 1].second) / static_cast<double>(t[k].first - t[k - 1].first);
}

// Time at `bytes` in segment k given that segment's slope (k == size: the last segment's).
double interpolate(const std::vector<std::pair<uint64_t, double>>& t, size_t k, uint64_t bytes, double slope) {
  if (k < t.size()) return t[k - 1].second + slope * static_cast<double>(bytes - t[k - 1].first);
  return t.back().second + slope * static_cast<double>(bytes - t.back().first);
}

// Slope beyond the last breakpoint (affine: its beta).
double finalSlope(const AlgorithmCurve& c) {
  if (c.table.empty()) return c.usPerByte;
  return c.table.size() < 2 ? 0.0 : segmentSlope(c.table, c.table.size() - 1);
}

// b <= a at every size (both are piecewise linear with breakpoints among the union of their
// table sizes and 0, so comparing there and the final slopes decides it), and b < a somewhere
// unless `earlier` (b comes first in the list and wins ties).
bool dominates(const AlgorithmCurve& b, const AlgorithmCurve& a, bool earlier) {
  std::vector<uint64_t> points{0};
  for (const auto& p : a.table) points.push_back(p.first);
  for (const auto& p : b.table) points.push_back(p.first);
  bool strict = false;
  for (uint64_t x : points) {
    double tb = b.timeUs(x), ta = a.timeUs(x);
    if (tb > ta) return false;
    strict = strict || tb < ta;
  }
  double sb = finalSlope(b), sa = finalSlope(a);
  if (sb > sa) return false;
  strict = strict || sb < sa;
  return strict || earlier;
}

}  // namespace

double AlgorithmCurve::timeUsIn(uint64_t bytes, size_t k) const {
  if (table.empty()) return alphaUs + usPerByte * static_cast<double>(bytes);
  if (k == 0 || table.size() == 1) return k < table.size() ? table[k].second : table.back().second;
  return interpolate(table, k, bytes, segmentSlope(table, std::min(k, table.size() - 1)));
}

bool AlgorithmCurve::nonDecreasing() const {
  if (table.empty()) return usPerByte >= 0;
  for (size_t i = 1; i < table.size(); ++i)
    if (table[i].second < table[i - 1].second) return false;
  return true;
}

CommCost::CommCost(std::vector<AlgorithmCurve> curves) : curves_(std::move(curves)) {
  if (curves_.empty()) throw std::invalid_argument("no AllReduce algorithm to cost buckets with");
  for (const AlgorithmCurve& c : curves_) {
    auto bad = [&](double v) { return !std::isfinite(v) || v < 0; };
    if (c.table.empty() && (bad(c.alphaUs) || bad(c.usPerByte)))
      throw std::invalid_argument("algorithm '" + c.name + "': alpha and beta must be finite and >= 0");
    for (size_t i = 0; i < c.table.size(); ++i) {
      if (bad(c.table[i].second)) throw std::invalid_argument("algorithm '" + c.name + "': a negative time");
      if (i > 0 && c.table[i].first <= c.table[i - 1].first)
        throw std::invalid_argument("algorithm '" + c.name + "': table sizes must ascend");
    }
    std::vector<double> slopes(c.table.size(), 0);
    for (size_t k = 1; k < c.table.size(); ++k) slopes[k] = segmentSlope(c.table, k);
    slopes_.push_back(std::move(slopes));
  }
  for (size_t a = 0; a < curves_.size(); ++a) {
    bool dominated = false;
    for (size_t b = 0; b < curves_.size() && !dominated; ++b)
      if (b != a) dominated = dominates(curves_[b], curves_[a], b < a);
    if (!dominated) {
      useful_.push_back(static_cast<int32_t>(a));
      monotone_ = monotone_ && curves_[a].nonDecreasing();
    }
  }
}

CommCost::Choice CommCost::best(uint64_t bytes) const {
  Choice c;
  for (int32_t i : useful_) {
    double t = curves_[static_cast<size_t>(i)].timeUs(bytes);
    if (c.algorithm < 0 || t < c.timeUs) c = {t, i};
  }
  return c;
}

double CommCost::Cursor::timeUs(uint64_t bytes) {
  double best = 0;
  for (size_t u = 0; u < cost_->useful_.size(); ++u) {
    const size_t i = static_cast<size_t>(cost_->useful_[u]);
    const AlgorithmCurve& c = cost_->curves_[i];
    double t;
    if (c.table.empty()) {
      t = c.alphaUs + c.usPerByte * static_cast<double>(bytes);
    } else {
      size_t& k = segments_[u];
      while (k < c.table.size() && bytes > c.table[k].first) ++k;
      const std::vector<double>& slopes = cost_->slopes_[i];
      t = k == 0 || c.table.size() == 1 ? (k < c.table.size() ? c.table[k].second : c.table.back().second)
                                        : interpolate(c.table, k, bytes, slopes[std::min(k, c.table.size() - 1)]);
    }
    if (u == 0 || t < best) best = t;
  }
  return best;
}

CommCost CommCost::only(int32_t algorithm) const { return CommCost({curves_.at(static_cast<size_t>(algorithm))}); }

CommCost CommCost::onlyNamed(const std::string& prefix) const {
  std::vector<AlgorithmCurve> kept;
  for (const AlgorithmCurve& c : curves_)
    if (c.name.compare(0, prefix.size(), prefix) == 0) kept.push_back(c);
  if (kept.empty()) throw std::invalid_argument("no algorithm named " + prefix + "...");
  return CommCost(std::move(kept));
}

const std::vector<NetworkPreset>& networkPresets() {
  static const std::vector<NetworkPreset> presets{
      {"10gbe", "10 Gb Ethernet, MG-WFBP's measured 8-worker AllReduce: alpha 523 us, beta 8.57e-10 s/B", 523.0,
       8.57e-4},
      {"ib56", "56 Gb InfiniBand, MG-WFBP's measured 8-worker AllReduce: alpha 97.5 us, beta 3.06e-10 s/B", 97.5,
       3.06e-4},
      {"nvlink", "NVLink class (an assumption): alpha 20 us, 150 GB/s bus bandwidth at 8 workers", 20.0,
       (2.0 * 7.0 / 8.0) / 150e9 * 1e6},
  };
  return presets;
}

const NetworkPreset& findNetworkPreset(const std::string& name) {
  for (const NetworkPreset& p : networkPresets())
    if (p.name == name) return p;
  std::string known;
  for (const NetworkPreset& p : networkPresets()) known += (known.empty() ? "" : ", ") + p.name;
  throw std::invalid_argument("no network preset '" + name + "' (presets: " + known + ")");
}

CommCost analyticCost(const NetworkPreset& preset, int32_t workers, bool ringOnly) {
  if (workers < 2 || workers > kMaxWorkers)
    throw std::invalid_argument("workers must be 2 .. " + std::to_string(kMaxWorkers));
  const double p = workers;
  const double a = preset.alphaUs / 14.0;
  const double b = preset.usPerByte * 8.0 / 14.0;
  int32_t lg = 0;
  while ((int64_t{1} << lg) < workers) ++lg;
  std::vector<AlgorithmCurve> curves;
  curves.push_back({"ring", "", 2 * (p - 1) * a, 2 * (p - 1) / p * b, {}});
  if (!ringOnly) {
    curves.push_back({"halving-doubling", "", 2.0 * lg * a, 2 * (p - 1) / p * b, {}});
    curves.push_back({"recursive-doubling", "", lg * a, lg * b, {}});
  }
  return CommCost(std::move(curves));
}

}  // namespace ccforge::plan
