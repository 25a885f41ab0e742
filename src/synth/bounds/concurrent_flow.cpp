#include "synth/bounds/concurrent_flow.hpp"

#include <map>
#include <optional>
#include <queue>
#include <stdexcept>
#include <tuple>

#include "topology/automorphisms.hpp"
#include "synth/lp/exact_linear_solve.hpp"
#include "synth/lp/revised_simplex.hpp"

namespace ccforge::synth {
namespace {

using topo::Rational;
using topo::Topology;

// Double-precision pivots only need to get close; exact ones usually finish in a few.
constexpr int64_t kFloatPivotLimit = 50000;
constexpr int64_t kExactPivotLimit = 200000;
constexpr int64_t kReinvertEvery = 200;
constexpr int64_t kDegenerateStreak = 5000;

// One row per orbit of GPUs (the sources) and per orbit of links, under the automorphisms:
// an optimal flow can be taken symmetric, so a source stands for its orbit and a link
// orbit's constraint is the sum of its links' constraints.
struct Symmetry {
  std::vector<int32_t> sources;      // representative vertex per source row
  std::vector<int64_t> sourceCount;  // GPUs in its orbit
  std::vector<int32_t> linkRow;      // per link: its orbit's index
  std::vector<int64_t> orbitCount;   // links per orbit
  std::vector<Rational> orbitCapacity;

  int32_t rows() const { return static_cast<int32_t>(sources.size() + orbitCount.size()); }
};

Symmetry symmetryOf(const Topology& t) {
  const topo::AutomorphismGroup group = topo::automorphisms(t, topo::Weighting::Weighted);
  Symmetry s;
  std::map<int32_t, size_t> sourceIndex;
  for (int32_t g : t.gpus()) {
    int32_t root = group.vertexOrbit[static_cast<size_t>(g)];
    auto [it, fresh] = sourceIndex.emplace(root, s.sources.size());
    if (fresh) {
      s.sources.push_back(root);
      s.sourceCount.push_back(0);
    }
    ++s.sourceCount[it->second];
  }
  std::map<int32_t, int32_t> orbitIndex;
  const std::vector<int32_t> linkOrbit = topo::linkOrbits(t, group);
  for (size_t id = 0; id < linkOrbit.size(); ++id) {
    auto [it, fresh] = orbitIndex.emplace(linkOrbit[id], static_cast<int32_t>(s.orbitCount.size()));
    if (fresh) {
      s.orbitCount.push_back(0);
      s.orbitCapacity.push_back(t.links()[id].bandwidthGBps);
    }
    ++s.orbitCount[static_cast<size_t>(it->second)];
    s.linkRow.push_back(it->second);
  }
  return s;
}

// A routing of one unit from a source to every other GPU along one path each, as the
// number of paths crossing each link orbit.
struct Tree {
  int32_t source = 0;
  std::vector<std::pair<int32_t, int64_t>> loads;  // (orbit, paths), by orbit
  bool operator<(const Tree& o) const { return std::tie(source, loads) < std::tie(o.source, o.loads); }
};

template <typename T>
struct PathTree {
  std::vector<T> distance;
  std::vector<int32_t> viaLink;  // per vertex: the last link of its shortest path, -1 for none
};

// Dijkstra with non-negative link lengths; ties go to fewer hops, then smaller vertex ids.
template <typename T>
PathTree<T> shortestPaths(const Topology& t, int32_t from, const std::vector<T>& length) {
  const size_t n = t.vertices().size();
  PathTree<T> p{std::vector<T>(n, T(0)), std::vector<int32_t>(n, -1)};
  std::vector<int32_t> hops(n, -1);
  std::vector<bool> done(n, false);
  using Entry = std::tuple<T, int32_t, int32_t>;
  std::priority_queue<Entry, std::vector<Entry>, std::greater<Entry>> queue;
  hops[static_cast<size_t>(from)] = 0;
  queue.emplace(T(0), 0, from);
  while (!queue.empty()) {
    auto [d, h, v] = queue.top();
    queue.pop();
    if (done[static_cast<size_t>(v)]) continue;
    done[static_cast<size_t>(v)] = true;
    for (int32_t id : t.outLinks(v)) {
      const auto w = static_cast<size_t>(t.links()[static_cast<size_t>(id)].to);
      T candidate = d + length[static_cast<size_t>(id)];
      if (done[w]) continue;
      if (hops[w] >= 0 && (p.distance[w] < candidate || (p.distance[w] == candidate && hops[w] <= h + 1))) continue;
      p.distance[w] = candidate;
      hops[w] = h + 1;
      p.viaLink[w] = id;
      queue.emplace(candidate, h + 1, static_cast<int32_t>(w));
    }
  }
  for (int32_t g : t.gpus())
    if (hops[static_cast<size_t>(g)] < 0) throw std::logic_error("alltoall bound: a GPU is unreachable");
  return p;
}

template <typename T>
T sumOverGpus(const Topology& t, const PathTree<T>& p) {
  T total = 0;
  for (int32_t g : t.gpus()) total += p.distance[static_cast<size_t>(g)];
  return total;
}

template <typename T>
Tree treeOf(const Topology& t, const Symmetry& s, int32_t sourceRow, const PathTree<T>& p) {
  std::map<int32_t, int64_t> loads;
  const int32_t from = s.sources[static_cast<size_t>(sourceRow)];
  for (int32_t g : t.gpus())
    for (int32_t v = g; v != from;) {
      const int32_t id = p.viaLink[static_cast<size_t>(v)];
      ++loads[s.linkRow[static_cast<size_t>(id)]];
      v = t.links()[static_cast<size_t>(id)].from;
    }
  return {sourceRow, {loads.begin(), loads.end()}};
}

// The master LP: maximise lambda subject to, per source row i, (sum of its trees) = lambda,
// and per link orbit P, sum over trees of |orbit(source)| * paths(P) * x <= |P| * capacity.
// Columns: 0 = lambda, 1..P = slacks, then trees.
template <typename T>
class Master {
  using Num = NumberTraits<T>;

 public:
  Master(const Topology& t, const Symmetry& s) : t_(t), s_(s), lp_(s.rows(), rhs(s)) {
    SparseColumn<T> lambda;
    lambda.cost = 1;
    for (size_t i = 0; i < s.sources.size(); ++i) lambda.entries.emplace_back(static_cast<int32_t>(i), T(-1));
    addColumn(std::move(lambda));
    for (size_t p = 0; p < s.orbitCount.size(); ++p) addColumn({{{orbitRow(p), T(1)}}, T(0)});
  }

  RevisedSimplex<T>& lp() { return lp_; }
  const std::vector<Tree>& trees() const { return trees_; }

  int32_t addTree(const Tree& tree) {
    if (auto it = known_.find(tree); it != known_.end()) return it->second;
    SparseColumn<T> column;
    column.entries.emplace_back(tree.source, T(1));
    const T weight = T(s_.sourceCount[static_cast<size_t>(tree.source)]);
    for (const auto& [orbit, paths] : tree.loads)
      column.entries.emplace_back(orbitRow(static_cast<size_t>(orbit)), weight * T(paths));
    int32_t id = addColumn(std::move(column));
    trees_.push_back(tree);
    known_.emplace(tree, id);
    return id;
  }

  // Hop-count trees, basic at zero, with every slack: a feasible first basis.
  std::vector<int32_t> startingBasis() {
    std::vector<int32_t> basis;
    const std::vector<T> unit(t_.links().size(), T(1));
    for (size_t i = 0; i < s_.sources.size(); ++i)
      basis.push_back(addTree(treeOf(t_, s_, static_cast<int32_t>(i), shortestPaths(t_, s_.sources[i], unit))));
    for (size_t p = 0; p < s_.orbitCount.size(); ++p) basis.push_back(static_cast<int32_t>(1 + p));
    return basis;
  }

  // Floating-point phase: pivots on the steepest improving column, present or priced by
  // shortest paths, until none improves lambda. Returns false at `pivotLimit`.
  bool solveFloat(int64_t pivotLimit) {
    while (lp_.pivots() < pivotLimit) {
      if (lp_.pivots() > 0 && lp_.pivots() % kReinvertEvery == 0) lp_.setBasis(lp_.basis());
      const std::vector<T> y = lp_.duals();
      int32_t entering = steepestColumn(y);
      if (entering < 0) entering = priceTrees(y, false);
      if (entering < 0) return true;
      if (!lp_.pivot(entering)) throw std::logic_error("alltoall bound: the LP is unbounded");
    }
    return false;
  }

  // Exact phase: candidates are screened with floating-point copies of the duals and
  // confirmed exactly; optimality is declared only after an exact scan and exact pricing.
  // Steepest column while lambda moves; after kDegenerateStreak pivots without progress,
  // Bland's rule (the first improving column), which cannot cycle.
  bool solveExact(int64_t pivotLimit) {
    int64_t streak = 0;
    T last = lambda();
    while (lp_.pivots() < pivotLimit) {
      const std::vector<T> y = lp_.duals();
      int32_t entering = -1;
      if (streak < kDegenerateStreak) entering = screenedColumn(y);
      if (entering < 0) entering = firstImprovingColumn(y);
      if (entering < 0) entering = priceTrees(y, true);
      if (entering < 0) return true;
      if (!lp_.pivot(entering)) throw std::logic_error("alltoall bound: the LP is unbounded");
      T now = lambda();
      streak = now > last ? 0 : streak + 1;
      last = now;
    }
    return false;
  }

  T lambda() const {
    for (size_t k = 0; k < lp_.basis().size(); ++k)
      if (lp_.basis()[k] == 0) return lp_.basicValues()[k];
    return T(0);
  }

  // Per link: the dual length of its orbit row (negative values, float noise, become 0).
  std::vector<T> linkLengths(const std::vector<T>& y) const {
    std::vector<T> length;
    for (int32_t row : s_.linkRow) {
      const T& v = y[static_cast<size_t>(orbitRow(static_cast<size_t>(row)))];
      length.push_back(Num::positive(v) ? v : T(0));
    }
    return length;
  }

 private:
  // Columns go to the LP and, as floating-point copies, to the screening of the exact phase.
  int32_t addColumn(SparseColumn<T> column) {
    SparseColumn<double> copy;
    copy.cost = topo::toDouble(Rational(column.cost));
    for (const auto& [row, value] : column.entries) copy.entries.emplace_back(row, topo::toDouble(Rational(value)));
    shadow_.push_back(std::move(copy));
    return lp_.addColumn(std::move(column));
  }

  static std::vector<T> rhs(const Symmetry& s) {
    std::vector<T> b(s.sources.size(), T(0));
    for (size_t p = 0; p < s.orbitCount.size(); ++p) b.push_back(toT(s.orbitCapacity[p] * s.orbitCount[p]));
    return b;
  }
  static T toT(const Rational& r) {
    if constexpr (std::is_same_v<T, Rational>)
      return r;
    else
      return topo::toDouble(r);
  }
  int32_t orbitRow(size_t orbit) const { return static_cast<int32_t>(s_.sources.size() + orbit); }

  std::vector<bool> basicMask() const {
    std::vector<bool> basic(static_cast<size_t>(lp_.columnCount()), false);
    for (int32_t j : lp_.basis()) basic[static_cast<size_t>(j)] = true;
    return basic;
  }

  int32_t steepestColumn(const std::vector<T>& y) const {
    const std::vector<bool> basic = basicMask();
    int32_t entering = -1;
    T best = 0;
    for (int32_t j = 0; j < lp_.columnCount(); ++j) {
      if (basic[static_cast<size_t>(j)]) continue;
      T d = RevisedSimplex<T>::reducedCost(lp_.column(j), y);
      if (Num::positive(d) && (entering < 0 || d > best)) {
        entering = j;
        best = d;
      }
    }
    return entering;
  }

  int32_t firstImprovingColumn(const std::vector<T>& y) const {
    const std::vector<bool> basic = basicMask();
    for (int32_t j = 0; j < lp_.columnCount(); ++j)
      if (!basic[static_cast<size_t>(j)] && Num::positive(RevisedSimplex<T>::reducedCost(lp_.column(j), y))) return j;
    return -1;
  }

  // The steepest column by floating-point reduced costs (present columns, then new trees),
  // if its exact reduced cost confirms it improves; -1 otherwise.
  int32_t screenedColumn(const std::vector<T>& y) {
    std::vector<double> approx;
    for (const T& v : y) approx.push_back(topo::toDouble(v));
    const std::vector<bool> basic = basicMask();
    int32_t entering = -1;
    double best = NumberTraits<double>::kEpsilon;
    for (int32_t j = 0; j < lp_.columnCount(); ++j) {
      if (basic[static_cast<size_t>(j)]) continue;
      double d = RevisedSimplex<double>::reducedCost(shadow_[static_cast<size_t>(j)], approx);
      if (d > best) {
        entering = j;
        best = d;
      }
    }
    if (entering >= 0 && Num::positive(RevisedSimplex<T>::reducedCost(lp_.column(entering), y))) return entering;
    std::vector<double> length;
    for (int32_t row : s_.linkRow)
      length.push_back(std::max(0.0, approx[static_cast<size_t>(orbitRow(static_cast<size_t>(row)))]));
    for (size_t i = 0; i < s_.sources.size(); ++i) {
      PathTree<double> p = shortestPaths(t_, s_.sources[i], length);
      double d = -(approx[i] + static_cast<double>(s_.sourceCount[i]) * sumOverGpus(t_, p));
      if (d <= NumberTraits<double>::kEpsilon) continue;
      Tree tree = treeOf(t_, s_, static_cast<int32_t>(i), p);
      if (known_.count(tree) != 0) continue;
      int32_t id = addTree(tree);
      if (Num::positive(RevisedSimplex<T>::reducedCost(lp_.column(id), y))) return id;
    }
    return -1;
  }

  // Adds the shortest-path tree of every source whose reduced cost is positive; returns
  // the column to enter, or -1.
  int32_t priceTrees(const std::vector<T>& y, bool bland) {
    const std::vector<T> length = linkLengths(y);
    int32_t entering = -1;
    T best = 0;
    for (size_t i = 0; i < s_.sources.size(); ++i) {
      PathTree<T> p = shortestPaths(t_, s_.sources[i], length);
      T d = -(y[i] + T(s_.sourceCount[i]) * sumOverGpus(t_, p));
      if (!Num::positive(d)) continue;
      Tree tree = treeOf(t_, s_, static_cast<int32_t>(i), p);
      if (known_.count(tree) != 0) continue;  // float noise: it is already priced out
      int32_t id = addTree(tree);
      if (entering < 0 || d > best) {
        entering = id;
        best = d;
      }
      if (bland) break;
    }
    return entering;
  }

  const Topology& t_;
  const Symmetry& s_;
  RevisedSimplex<T> lp_;
  std::vector<Tree> trees_;
  std::map<Tree, int32_t> known_;
  std::vector<SparseColumn<double>> shadow_;
};

// lambda <= sum_e c_e w_e / sum over ordered GPU pairs of dist_w, for any lengths w >= 0,
// on the full (unreduced) topology: an independent proof that lambda is optimal.
Rational dualBound(const Topology& t, const std::vector<Rational>& length) {
  // The bound does not change when every length is scaled: integer lengths avoid the gcd
  // work of rational sums in the shortest paths.
  topo::BigInt common = 1;
  for (const Rational& w : length) common = boost::multiprecision::lcm(common, boost::multiprecision::denominator(w));
  std::vector<topo::BigInt> integral;
  Rational cost = 0;
  for (size_t id = 0; id < t.links().size(); ++id) {
    integral.push_back(boost::multiprecision::numerator(Rational(length[id] * common)));
    cost += t.links()[id].bandwidthGBps * integral.back();
  }
  topo::BigInt distances = 0;
  for (int32_t g : t.gpus()) distances += sumOverGpus(t, shortestPaths(t, g, integral));
  if (distances == 0) throw std::logic_error("alltoall bound: the dual lengths are all zero");
  return cost / distances;
}

// The float phase's final basis, solved exactly (refinement from its floating-point
// inverse): if its solution is feasible and its lambda meets the dual bound of its exact
// duals, lambda is proven optimal without exact pivoting.
std::optional<Rational> certifyFloatBasis(const Topology& t, Master<double>& rough, Master<Rational>& exact) {
  RevisedSimplex<double>& lp = rough.lp();
  if (!lp.setBasis(lp.basis())) return std::nullopt;
  const std::vector<int32_t>& basis = lp.basis();
  const auto m = basis.size();
  SparseMatrix b{static_cast<int32_t>(m), {}}, bt{static_cast<int32_t>(m), {}};
  std::vector<Rational> costs;
  for (size_t k = 0; k < m; ++k) {
    const SparseColumn<Rational>& column = exact.lp().column(basis[k]);
    costs.push_back(column.cost);
    for (const auto& [row, value] : column.entries) {
      b.entries.emplace_back(row, static_cast<int32_t>(k), value);
      bt.entries.emplace_back(static_cast<int32_t>(k), row, value);
    }
  }
  std::vector<std::vector<double>> transposed(m, std::vector<double>(m));
  for (size_t i = 0; i < m; ++i)
    for (size_t j = 0; j < m; ++j) transposed[i][j] = lp.inverse()[j][i];
  auto x = solveExactly(b, exact.lp().rhs(), lp.inverse());
  if (!x) return std::nullopt;
  Rational lambda = 0;
  for (size_t k = 0; k < m; ++k) {
    if ((*x)[k] < 0) return std::nullopt;
    if (basis[k] == 0) lambda = (*x)[k];
  }
  auto y = solveExactly(bt, costs, transposed);
  if (!y || lambda == 0 || dualBound(t, exact.linkLengths(*y)) != lambda) return std::nullopt;
  return lambda;
}

}  // namespace

ConcurrentFlow allToAllRate(const Topology& t) {
  const Symmetry s = symmetryOf(t);
  if (s.rows() > kMaxAllToAllRows)
    throw std::length_error("the alltoall LP has " + std::to_string(s.rows()) +
                            " rows after symmetry reduction, more than " + std::to_string(kMaxAllToAllRows));
  Master<double> rough(t, s);
  if (!rough.lp().setBasis(rough.startingBasis())) throw std::logic_error("alltoall bound: singular starting basis");
  rough.solveFloat(kFloatPivotLimit);

  Master<Rational> exact(t, s);
  const std::vector<int32_t> start = exact.startingBasis();
  for (const Tree& tree : rough.trees()) exact.addTree(tree);
  ConcurrentFlow result;
  result.rows = s.rows();
  result.columns = static_cast<int32_t>(exact.trees().size());
  result.pivots = rough.lp().pivots();
  if (auto lambda = certifyFloatBasis(t, rough, exact)) {
    result.rate = *lambda;
    return result;
  }
  // Both masters added the same starting trees first, so column ids agree and the float
  // phase's final basis can be installed exactly; if it is not exactly feasible, start over.
  if (!exact.lp().setBasis(rough.lp().basis()) || !exact.lp().primalFeasible()) {
    if (!exact.lp().setBasis(start)) throw std::logic_error("alltoall bound: singular starting basis");
  }
  if (!exact.solveExact(kExactPivotLimit))
    throw std::logic_error("alltoall bound: the exact simplex hit its pivot limit");

  result.rate = exact.lambda();
  Rational proof = dualBound(t, exact.linkLengths(exact.lp().duals()));
  if (proof != result.rate)
    throw std::logic_error("alltoall bound: LP value " + topo::toString(result.rate) + " and its dual certificate " +
                           topo::toString(proof) + " disagree");
  result.columns = static_cast<int32_t>(exact.trees().size());
  result.pivots += exact.lp().pivots();
  return result;
}

}  // namespace ccforge::synth
