// Exact solution of a square linear system from a floating-point approximate inverse:
// iterative refinement with exact integer residuals (each step gains about 26 bits),
// rational reconstruction by continued fractions, and an exact check of the candidate.
#pragma once

#include <optional>
#include <tuple>
#include <vector>

#include "topology/rational.hpp"

namespace ccforge::synth {

struct SparseMatrix {
  int32_t size = 0;
  std::vector<std::tuple<int32_t, int32_t, topo::Rational>> entries;  // (row, column, value)
};

// x with A x = b exactly, or nullopt when `maxSteps` refinements do not produce one (a
// singular A, or an approximate inverse too poor to converge).
std::optional<std::vector<topo::Rational>> solveExactly(const SparseMatrix& a, const std::vector<topo::Rational>& b,
                                                        const std::vector<std::vector<double>>& approximateInverse,
                                                        int maxSteps = 64);

}  // namespace ccforge::synth
