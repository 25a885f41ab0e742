#include "synth/deploy/cost_envelope.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>

namespace ccforge::synth::deploy {

CostCurve::CostCurve(std::vector<std::pair<double, double>> samples) {
  if (samples.empty()) throw std::invalid_argument("a cost curve needs a sample");
  if (samples.size() == 1) pieces_.push_back({samples[0].first, samples[0].second, 0});
  for (size_t i = 1; i < samples.size(); ++i) {
    const auto& [x0, y0] = samples[i - 1];
    const auto& [x1, y1] = samples[i];
    if (!(x0 < x1)) throw std::invalid_argument("the sizes of a cost curve must increase");
    pieces_.push_back({x0, y0, (y1 - y0) / (x1 - x0)});
  }
}

CostCurve CostCurve::affine(double interceptUs, double usPerByte) {
  CostCurve line({{0.0, interceptUs}});
  line.pieces_.front().usPerByte = usPerByte;
  return line;
}

const CostCurve::Piece& CostCurve::pieceFrom(double bytes) const {
  size_t i = 0;
  while (i + 1 < pieces_.size() && pieces_[i + 1].start <= bytes) ++i;
  return pieces_[i];
}

double CostCurve::slopeFrom(double bytes) const { return pieceFrom(bytes).usPerByte; }

double CostCurve::at(double bytes) const {
  const Piece& p = pieceFrom(bytes);
  return p.timeUs + p.usPerByte * (bytes - p.start);
}

std::vector<double> CostCurve::kinks() const {
  std::vector<double> out;
  for (size_t i = 1; i < pieces_.size(); ++i) out.push_back(pieces_[i].start);
  return out;
}

std::vector<std::optional<SizeRange>> fastestRanges(const std::vector<CostCurve>& curves,
                                                    const std::vector<std::optional<double>>& ends,
                                                    const std::vector<double>& starts) {
  if (ends.size() != curves.size()) throw std::invalid_argument("one end per cost curve");
  if (!starts.empty() && starts.size() != curves.size()) throw std::invalid_argument("one start per cost curve");
  const size_t n = curves.size();
  auto startOf = [&](size_t i) { return starts.empty() ? 0.0 : starts[i]; };
  std::vector<double> stops;  // where a slope changes or a candidate enters or drops out
  for (size_t i = 0; i < n; ++i) {
    for (double k : curves[i].kinks()) stops.push_back(k);
    if (ends[i]) stops.push_back(*ends[i]);
    if (startOf(i) > 0) stops.push_back(startOf(i));
  }
  std::sort(stops.begin(), stops.end());
  stops.erase(std::unique(stops.begin(), stops.end()), stops.end());

  std::vector<bool> running(n, true);
  auto available = [&](size_t i, double x) { return running[i] && x >= startOf(i) && (!ends[i] || x < *ends[i]); };
  auto ahead = [&](size_t a, size_t b, double x) {
    const double va = curves[a].at(x), vb = curves[b].at(x);
    if (va != vb) return va < vb;
    const double sa = curves[a].slopeFrom(x), sb = curves[b].slopeFrom(x);
    if (sa != sb) return sa < sb;
    return a < b;
  };
  auto fastestAt = [&](double x) {
    std::optional<size_t> best;
    for (size_t i = 0; i < n; ++i)
      if (available(i, x) && (!best || ahead(i, *best, x))) best = i;
    return best;
  };

  std::vector<std::optional<SizeRange>> out(n);
  // The sweep begins where the first candidate enters.
  double x = 0;
  for (size_t i = 0; i < n; ++i) x = i == 0 ? startOf(i) : std::min(x, startOf(i));
  double start = x;
  std::optional<size_t> current = fastestAt(x);
  // Each pass moves to the next stop or retires the current candidate: at most
  // stops.size() + n passes.
  while (current) {
    const size_t w = *current;
    const auto stop = std::upper_bound(stops.begin(), stops.end(), x);
    double event = stop == stops.end() ? std::numeric_limits<double>::infinity() : *stop;
    // Between stops every curve is straight: a flatter one overtakes w where the lines meet.
    std::optional<size_t> overtaker;
    const double vw = curves[w].at(x), sw = curves[w].slopeFrom(x);
    for (size_t j = 0; j < n; ++j) {
      if (j == w || !available(j, x)) continue;
      const double sj = curves[j].slopeFrom(x);
      if (sj >= sw) continue;
      const double meet = std::max(x, x + (curves[j].at(x) - vw) / (sw - sj));
      const bool flatter = overtaker && (sj < curves[*overtaker].slopeFrom(x) ||
                                         (sj == curves[*overtaker].slopeFrom(x) && j < *overtaker));
      if (meet < event || (meet == event && flatter)) {
        event = meet;
        overtaker = j;
      }
    }
    if (event == std::numeric_limits<double>::infinity()) {
      out[w] = SizeRange{start, std::nullopt};
      break;
    }
    x = event;
    const std::optional<size_t> next = overtaker ? overtaker : fastestAt(x);
    if (next == current) continue;
    if (x > start) out[w] = SizeRange{start, x};
    running[w] = false;
    start = x;
    current = next;
  }
  return out;
}

}  // namespace ccforge::synth::deploy
