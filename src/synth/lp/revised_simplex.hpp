// A revised primal simplex over a number type T (double for speed, topo::Rational for exact
// answers) with an explicit basis inverse. Columns can be added while solving (column
// generation). Maximises c.x subject to A x = b, x >= 0, from a feasible starting basis.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <type_traits>
#include <utility>
#include <vector>

#include "synth/lp/number_traits.hpp"

namespace ccforge::synth {

template <typename T>
struct SparseColumn {
  std::vector<std::pair<int32_t, T>> entries;  // (row, coefficient), rows distinct
  T cost = 0;
};

template <typename T>
class RevisedSimplex {
  using Num = NumberTraits<T>;

 public:
  RevisedSimplex(int32_t rows, std::vector<T> rhs) : m_(rows), b_(std::move(rhs)) {}

  const std::vector<T>& rhs() const { return b_; }
  int32_t addColumn(SparseColumn<T> column) {
    columns_.push_back(std::move(column));
    return static_cast<int32_t>(columns_.size()) - 1;
  }
  const SparseColumn<T>& column(int32_t j) const { return columns_[static_cast<size_t>(j)]; }
  int32_t columnCount() const { return static_cast<int32_t>(columns_.size()); }
  const std::vector<int32_t>& basis() const { return basis_; }
  const std::vector<T>& basicValues() const { return xB_; }
  // Row k is the row of B^-1 for basis position k.
  const std::vector<std::vector<T>>& inverse() const { return inverse_; }

  // Installs a basis (one column per row) and computes its inverse and basic values.
  // Returns false when the basis matrix is singular. Single-entry (slack) columns are
  // eliminated first, which costs nothing; the rest pivot on the sparsest row (exact) or
  // the largest entry (floating point).
  bool setBasis(std::vector<int32_t> basis) {
    if (static_cast<int32_t>(basis.size()) != m_) throw std::logic_error("RevisedSimplex: basis size");
    const auto m = static_cast<size_t>(m_);
    std::vector<std::vector<T>> a(m, std::vector<T>(m, T(0)));
    std::vector<size_t> order(m);
    for (size_t k = 0; k < m; ++k) {
      order[k] = k;
      for (const auto& [row, value] : columns_[static_cast<size_t>(basis[k])].entries)
        a[static_cast<size_t>(row)][k] = value;
    }
    std::stable_sort(order.begin(), order.end(), [&](size_t x, size_t y) {
      return columns_[static_cast<size_t>(basis[x])].entries.size() <
             columns_[static_cast<size_t>(basis[y])].entries.size();
    });
    std::vector<std::vector<T>> inv(m, std::vector<T>(m, T(0)));
    for (size_t i = 0; i < m; ++i) inv[i][i] = 1;
    std::vector<bool> used(m, false);
    std::vector<size_t> pivotRow(m);
    std::vector<size_t> nzA, nzInv;
    for (size_t col : order) {
      size_t pivot = m;
      double best = 0;
      size_t fewest = 0;
      for (size_t r = 0; r < m; ++r) {
        if (used[r] || Num::zero(a[r][col])) continue;
        if constexpr (std::is_same_v<T, double>) {
          double size = Num::magnitude(a[r][col]);
          if (pivot == m || size > best) {
            pivot = r;
            best = size;
          }
        } else {
          size_t count = 0;
          for (size_t k = 0; k < m; ++k) count += Num::zero(a[r][k]) ? 0 : 1;
          if (pivot == m || count < fewest) {
            pivot = r;
            fewest = count;
          }
        }
      }
      if (pivot == m) return false;
      used[pivot] = true;
      pivotRow[col] = pivot;
      const T scale = a[pivot][col];
      nzA.clear();
      nzInv.clear();
      for (size_t k = 0; k < m; ++k) {
        if (!Num::zero(a[pivot][k])) {
          a[pivot][k] /= scale;
          nzA.push_back(k);
        }
        if (!Num::zero(inv[pivot][k])) {
          inv[pivot][k] /= scale;
          nzInv.push_back(k);
        }
      }
      for (size_t r = 0; r < m; ++r) {
        if (r == pivot || Num::zero(a[r][col])) continue;
        const T factor = a[r][col];
        for (size_t k : nzA) a[r][k] -= factor * a[pivot][k];
        for (size_t k : nzInv) inv[r][k] -= factor * inv[pivot][k];
      }
    }
    basis_ = std::move(basis);
    inverse_.assign(m, {});
    for (size_t k = 0; k < m; ++k) inverse_[k] = std::move(inv[pivotRow[k]]);
    xB_.assign(m, T(0));
    for (size_t i = 0; i < m; ++i)
      for (size_t k = 0; k < m; ++k)
        if (!Num::zero(inverse_[i][k]) && !Num::zero(b_[k])) xB_[i] += inverse_[i][k] * b_[k];
    return true;
  }

  bool primalFeasible() const {
    for (const T& x : xB_)
      if (Num::negative(x)) return false;
    return true;
  }

  // y = c_B B^-1.
  std::vector<T> duals() const {
    const auto m = static_cast<size_t>(m_);
    std::vector<T> y(m, T(0));
    for (size_t k = 0; k < m; ++k) {
      const T& c = columns_[static_cast<size_t>(basis_[k])].cost;
      if (Num::zero(c)) continue;
      for (size_t i = 0; i < m; ++i)
        if (!Num::zero(inverse_[k][i])) y[i] += c * inverse_[k][i];
    }
    return y;
  }

  static T reducedCost(const SparseColumn<T>& column, const std::vector<T>& y) {
    T d = column.cost;
    for (const auto& [row, value] : column.entries) d -= y[static_cast<size_t>(row)] * value;
    return d;
  }

  T objective() const {
    T z = 0;
    for (size_t k = 0; k < basis_.size(); ++k) z += columns_[static_cast<size_t>(basis_[k])].cost * xB_[k];
    return z;
  }

  // Brings `entering` into the basis. The leaving row has the smallest ratio; ties go to
  // the smallest basic column id (Bland's rule when the entering column is the smallest
  // improving one). Returns false when the objective is unbounded along the column.
  bool pivot(int32_t entering) {
    const auto m = static_cast<size_t>(m_);
    std::vector<T> alpha(m, T(0));
    for (const auto& [row, value] : columns_[static_cast<size_t>(entering)].entries)
      for (size_t i = 0; i < m; ++i)
        if (!Num::zero(inverse_[i][static_cast<size_t>(row)]))
          alpha[i] += inverse_[i][static_cast<size_t>(row)] * value;
    std::optional<size_t> leave;
    T bestRatio = 0;
    for (size_t i = 0; i < m; ++i) {
      if (!Num::positive(alpha[i])) continue;
      T ratio = xB_[i] / alpha[i];
      if (Num::negative(ratio)) ratio = 0;
      if (!leave || ratio < bestRatio ||
          (!Num::positive(ratio - bestRatio) && !Num::negative(ratio - bestRatio) && basis_[i] < basis_[*leave])) {
        leave = i;
        bestRatio = ratio;
      }
    }
    if (!leave) return false;
    const size_t p = *leave;
    const T pivotValue = alpha[p];
    for (size_t k = 0; k < m; ++k)
      if (!Num::zero(inverse_[p][k])) inverse_[p][k] /= pivotValue;
    for (size_t i = 0; i < m; ++i) {
      if (i == p || Num::zero(alpha[i])) continue;
      const T factor = alpha[i];
      for (size_t k = 0; k < m; ++k)
        if (!Num::zero(inverse_[p][k])) inverse_[i][k] -= factor * inverse_[p][k];
      xB_[i] -= factor * bestRatio;
      if (Num::negative(xB_[i]) && !std::is_same_v<T, topo::Rational>) xB_[i] = 0;
    }
    xB_[p] = bestRatio;
    basis_[p] = entering;
    ++pivots_;
    return true;
  }

  int64_t pivots() const { return pivots_; }

 private:
  int32_t m_;
  std::vector<T> b_;
  std::vector<SparseColumn<T>> columns_;
  std::vector<int32_t> basis_;
  std::vector<std::vector<T>> inverse_;
  std::vector<T> xB_;
  int64_t pivots_ = 0;
};

}  // namespace ccforge::synth
