// Where each of several candidate programs is predicted the fastest: the lower envelope of their
// cost curves (time against size), with one range of sizes per candidate at most, so that each
// can be given one [minBytes, maxBytes] window (deployment.hpp).
#pragma once

#include <optional>
#include <utility>
#include <vector>

namespace ccforge::synth::deploy {

// Predicted time against size: samples joined by straight lines, the end segments continued
// past the first and the last sample (one sample: the same time at every size).
class CostCurve {
 public:
  // (bytes, µs) with strictly increasing bytes; at least one. Throws std::invalid_argument otherwise.
  explicit CostCurve(std::vector<std::pair<double, double>> samples);
  static CostCurve affine(double interceptUs, double usPerByte);

  double at(double bytes) const;
  // The slope of the piece that starts at `bytes` (µs per byte).
  double slopeFrom(double bytes) const;
  // The sizes where the slope may change.
  std::vector<double> kinks() const;

 private:
  struct Piece {
    double start;   // bytes
    double timeUs;  // at start
    double usPerByte;
  };
  const Piece& pieceFrom(double bytes) const;
  std::vector<Piece> pieces_;  // by increasing start; the first also covers smaller sizes
};

// [low, high) in bytes; high nullopt: no upper end.
struct SizeRange {
  double low = 0;
  std::optional<double> high;
};

// Sweeping up from 0 bytes, the fastest candidate still in the running (ties: the flatter curve,
// then the earlier candidate) keeps the sizes until another becomes faster or its end (an
// exclusive upper size, `ends[i]`, nullopt: none) is reached; a candidate enters the running at
// `starts[i]` (empty: every candidate at 0 bytes). The one leaving the sizes leaves the running, so
// that each candidate gets one range at most. For straight lines without ends this is the exact
// lower envelope (a line that loses to a flatter one never wins again); a sampled curve that
// would win again later leaves those sizes to the others. nullopt: never the fastest.
std::vector<std::optional<SizeRange>> fastestRanges(const std::vector<CostCurve>& curves,
                                                    const std::vector<std::optional<double>>& ends,
                                                    const std::vector<double>& starts = {});

}  // namespace ccforge::synth::deploy
