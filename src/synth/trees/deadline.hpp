// The time limit of one synthesis: every loop that may run long checks it.
#pragma once

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <stdexcept>

namespace ccforge::synth::trees {

// Thrown when the synthesis runs past its time limit; reported as inconclusive.
class SynthesisLimit : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class Deadline {
 public:
  explicit Deadline(double seconds)
      : end_(std::chrono::steady_clock::now() +
             std::chrono::duration_cast<std::chrono::steady_clock::duration>(std::chrono::duration<double>(seconds))),
        seconds_(seconds) {}
  // What is left of it (0 once it has passed).
  double secondsLeft() const {
    return std::max(0.0, std::chrono::duration<double>(end_ - std::chrono::steady_clock::now()).count());
  }
  void check(const char* stage) const {
    if (std::chrono::steady_clock::now() > end_)
      throw SynthesisLimit(fmt::format("{}: time limit of {:g} s reached", stage, seconds_));
  }

 private:
  std::chrono::steady_clock::time_point end_;
  double seconds_;
};

}  // namespace ccforge::synth::trees
