#include "topology/automorphisms.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <tuple>

#include "base/union_find.hpp"

namespace ccforge::topo {
namespace {

struct Edge {
  int32_t to;
  int32_t label;
};

// The topology as a vertex- and edge-coloured digraph.
struct ColouredGraph {
  int32_t n = 0;
  std::vector<int32_t> kind;
  std::vector<std::vector<Edge>> out;
  std::vector<std::vector<Edge>> in;
  size_t edges = 0;
};

ColouredGraph colouredGraph(const Topology& t, Weighting weighting) {
  using Key = std::tuple<Rational, double, int>;
  std::vector<Key> keys;
  auto keyOf = [&](const Link& l) {
    if (weighting == Weighting::Unweighted) return Key{0, 0.0, 0};
    return Key{l.bandwidthGBps, l.alphaUs, static_cast<int>(l.linkClass)};
  };
  for (const Link& l : t.links()) keys.push_back(keyOf(l));
  std::sort(keys.begin(), keys.end());
  keys.erase(std::unique(keys.begin(), keys.end()), keys.end());

  ColouredGraph g;
  g.n = static_cast<int32_t>(t.vertices().size());
  for (const Vertex& v : t.vertices()) g.kind.push_back(static_cast<int32_t>(v.kind));
  g.out.resize(static_cast<size_t>(g.n));
  g.in.resize(static_cast<size_t>(g.n));
  for (const Link& l : t.links()) {
    auto label = static_cast<int32_t>(std::lower_bound(keys.begin(), keys.end(), keyOf(l)) - keys.begin());
    g.out[static_cast<size_t>(l.from)].push_back({l.to, label});
    g.in[static_cast<size_t>(l.to)].push_back({l.from, label});
  }
  g.edges = t.links().size();
  return g;
}

using Colouring = std::vector<int32_t>;

class Search {
 public:
  Search(const ColouredGraph& g, uint64_t workLimit) : g_(g), workLimit_(workLimit) {}

  bool exhausted() const { return work_ > workLimit_; }

  // Refines a left and a right colouring together (colours mean the same on both sides);
  // false when they stop being compatible or the work limit is reached. Colours end up
  // dense, 0..k-1.
  bool refine(Colouring& left, Colouring& right) {
    const auto n = static_cast<size_t>(g_.n);
    int32_t count = -1;
    const uint64_t sortFactor = 1 + static_cast<uint64_t>(std::log2(2.0 * static_cast<double>(n) + 1));
    for (size_t round = 0; round <= n + 1; ++round) {
      work_ += 2 * (n + 2 * g_.edges) * sortFactor;
      if (exhausted()) return false;
      std::vector<std::vector<int64_t>> sig(2 * n);
      const auto scale = static_cast<int64_t>(2 * n + 2);
      for (size_t item = 0; item < 2 * n; ++item) {
        const Colouring& c = item < n ? left : right;
        size_t v = item % n;
        std::vector<int64_t>& s = sig[item];
        s.push_back(c[v]);
        appendMultiset(s, g_.out[v], c, scale);
        s.push_back(-1);
        appendMultiset(s, g_.in[v], c, scale);
      }
      std::vector<size_t> order(2 * n);
      std::iota(order.begin(), order.end(), size_t{0});
      std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return sig[a] < sig[b]; });
      std::vector<int32_t> fresh(2 * n);
      int32_t next = -1;
      for (size_t k = 0; k < order.size(); ++k) {
        if (k == 0 || sig[order[k]] != sig[order[k - 1]]) ++next;
        fresh[order[k]] = next;
      }
      std::vector<int32_t> balance(static_cast<size_t>(next) + 1, 0);
      for (size_t item = 0; item < 2 * n; ++item) balance[static_cast<size_t>(fresh[item])] += item < n ? 1 : -1;
      for (int32_t b : balance)
        if (b != 0) return false;
      for (size_t v = 0; v < n; ++v) {
        left[v] = fresh[v];
        right[v] = fresh[v + n];
      }
      if (next + 1 == count) return true;
      count = next + 1;
    }
    return true;
  }

  // The (label, neighbour colour) pairs of `edges` as a sorted multiset: value, count, ...
  static void appendMultiset(std::vector<int64_t>& s, const std::vector<Edge>& edges, const Colouring& c,
                             int64_t scale) {
    std::vector<int64_t> values;
    values.reserve(edges.size());
    for (const Edge& e : edges) values.push_back(e.label * scale + c[static_cast<size_t>(e.to)]);
    std::sort(values.begin(), values.end());
    for (size_t i = 0; i < values.size();) {
      size_t j = i;
      while (j < values.size() && values[j] == values[i]) ++j;
      s.push_back(values[i]);
      s.push_back(static_cast<int64_t>(j - i));
      i = j;
    }
  }

  // An automorphism mapping left-individualised vertices to right-individualised ones, if any.
  bool extend(Colouring left, Colouring right, std::vector<int32_t>& result) {
    if (exhausted()) return false;
    if (!refine(left, right)) return false;
    const auto n = static_cast<size_t>(g_.n);
    auto cell = firstNonSingletonCell(left);
    if (!cell) {
      std::vector<int32_t> byColour(n);
      for (size_t v = 0; v < n; ++v) byColour[static_cast<size_t>(right[v])] = static_cast<int32_t>(v);
      result.assign(n, 0);
      for (size_t v = 0; v < n; ++v) result[v] = byColour[static_cast<size_t>(left[v])];
      return isAutomorphism(result);
    }
    if (pairCellsInOrder(left, right, result)) return true;
    size_t x = 0;
    while (left[x] != *cell) ++x;
    auto fresh = static_cast<int32_t>(n);
    // Candidates from x+1 on, wrapping around: on symmetric graphs the first success is then
    // a long cycle rather than a transposition, so orbits close after few searches.
    for (size_t k = 1; k <= n; ++k) {
      const size_t y = (x + k) % n;
      if (right[y] != *cell) continue;
      Colouring l = left, r = right;
      l[x] = fresh;
      r[y] = fresh;
      if (extend(std::move(l), std::move(r), result)) return true;
      if (exhausted()) return false;
    }
    return false;
  }

  // Shortcut for cells whose members are interchangeable (a switch's GPUs, a clique): map
  // every cell's left members in order onto its right members rotated past the first left
  // one, and keep the result if it is an automorphism.
  bool pairCellsInOrder(const Colouring& left, const Colouring& right, std::vector<int32_t>& result) const {
    const auto n = static_cast<size_t>(g_.n);
    std::vector<std::vector<size_t>> leftCells(n + 1), rightCells(n + 1);
    for (size_t v = 0; v < n; ++v) {
      leftCells[static_cast<size_t>(left[v])].push_back(v);
      rightCells[static_cast<size_t>(right[v])].push_back(v);
    }
    result.assign(n, 0);
    for (size_t colour = 0; colour <= n; ++colour) {
      const auto& l = leftCells[colour];
      const auto& r = rightCells[colour];
      if (l.empty()) continue;
      auto start = static_cast<size_t>(std::upper_bound(r.begin(), r.end(), l.front()) - r.begin());
      for (size_t k = 0; k < l.size(); ++k) result[l[k]] = static_cast<int32_t>(r[(start + k) % r.size()]);
    }
    return isAutomorphism(result);
  }

  // The colour class (smallest colour id) with more than one vertex, if any.
  static std::optional<int32_t> firstNonSingletonCell(const Colouring& c) {
    std::vector<int32_t> size(c.size() + 1, 0);
    for (int32_t colour : c) ++size[static_cast<size_t>(colour)];
    for (size_t colour = 0; colour < size.size(); ++colour)
      if (size[colour] > 1) return static_cast<int32_t>(colour);
    return std::nullopt;
  }

 private:
  bool isAutomorphism(const std::vector<int32_t>& p) const {
    for (size_t v = 0; v < p.size(); ++v) {
      if (g_.kind[v] != g_.kind[static_cast<size_t>(p[v])]) return false;
      const auto& image = g_.out[static_cast<size_t>(p[v])];
      if (image.size() != g_.out[v].size()) return false;
      for (const Edge& e : g_.out[v]) {
        bool found = false;
        for (const Edge& f : image) found = found || (f.to == p[static_cast<size_t>(e.to)] && f.label == e.label);
        if (!found) return false;
      }
    }
    return true;
  }

  const ColouredGraph& g_;
  uint64_t workLimit_;
  uint64_t work_ = 0;
};

}  // namespace

AutomorphismGroup automorphisms(const Topology& topology, Weighting weighting, uint64_t workLimit) {
  const ColouredGraph g = colouredGraph(topology, weighting);
  const auto n = static_cast<size_t>(g.n);
  Search search(g, workLimit);
  AutomorphismGroup group;

  // Base: individualise the first vertex of the first non-singleton cell until discrete.
  std::vector<int32_t> base;
  std::vector<Colouring> levels;  // levels[i]: refined colouring with base[0..i-1] individualised
  Colouring current = g.kind, twin = g.kind;
  search.refine(current, twin);
  for (;;) {
    levels.push_back(current);
    auto cell = Search::firstNonSingletonCell(current);
    if (!cell && !search.exhausted()) break;
    if (search.exhausted()) {
      group.complete = false;
      group.vertexOrbit.resize(n);
      std::iota(group.vertexOrbit.begin(), group.vertexOrbit.end(), 0);
      return group;
    }
    auto v = static_cast<int32_t>(std::find(current.begin(), current.end(), *cell) - current.begin());
    base.push_back(v);
    current[static_cast<size_t>(v)] = static_cast<int32_t>(n);
    twin = current;
    search.refine(current, twin);
  }

  base::UnionFind orbits(n);
  for (size_t i = base.size(); i-- > 0;) {
    const int32_t b = base[i];
    const Colouring& cells = levels[i];
    for (size_t w = 0; w < n; ++w) {
      if (cells[w] != cells[static_cast<size_t>(b)] || orbits.find(static_cast<int32_t>(w)) == orbits.find(b)) continue;
      if (search.exhausted()) break;
      Colouring left = cells, right = cells;
      left[static_cast<size_t>(b)] = static_cast<int32_t>(n);
      right[w] = static_cast<int32_t>(n);
      std::vector<int32_t> g1;
      if (search.extend(std::move(left), std::move(right), g1)) {
        for (size_t v = 0; v < n; ++v) orbits.unite(static_cast<int32_t>(v), g1[v]);
        group.generators.push_back(std::move(g1));
      }
    }
    int64_t orbitSize = 0;
    for (size_t w = 0; w < n; ++w)
      if (cells[w] == cells[static_cast<size_t>(b)] && orbits.find(static_cast<int32_t>(w)) == orbits.find(b))
        ++orbitSize;
    group.order *= orbitSize;
  }
  group.complete = !search.exhausted();
  for (size_t v = 0; v < n; ++v) group.vertexOrbit.push_back(orbits.find(static_cast<int32_t>(v)));
  return group;
}

bool isAutomorphism(const Topology& topology, const std::vector<int32_t>& image, Weighting weighting) {
  const auto& vertices = topology.vertices();
  if (image.size() != vertices.size()) return false;
  std::vector<bool> hit(vertices.size(), false);
  for (size_t v = 0; v < image.size(); ++v) {
    const int32_t w = image[v];
    if (w < 0 || static_cast<size_t>(w) >= vertices.size() || hit[static_cast<size_t>(w)]) return false;
    hit[static_cast<size_t>(w)] = true;
    if (vertices[static_cast<size_t>(w)].kind != vertices[v].kind) return false;
  }
  // Links are unique per ordered pair: an injective map of the links onto links is onto.
  for (const Link& l : topology.links()) {
    const auto mapped = topology.findLink(image[static_cast<size_t>(l.from)], image[static_cast<size_t>(l.to)]);
    if (!mapped) return false;
    const Link& m = topology.links()[static_cast<size_t>(*mapped)];
    if (weighting == Weighting::Weighted &&
        (m.bandwidthGBps != l.bandwidthGBps || m.alphaUs != l.alphaUs || m.linkClass != l.linkClass))
      return false;
  }
  return true;
}

std::vector<int32_t> linkOrbits(const Topology& topology, const AutomorphismGroup& group) {
  const auto& links = topology.links();
  base::UnionFind orbits(links.size());
  for (const auto& g : group.generators)
    for (size_t id = 0; id < links.size(); ++id) {
      auto image = topology.findLink(g[static_cast<size_t>(links[id].from)], g[static_cast<size_t>(links[id].to)]);
      if (image) orbits.unite(static_cast<int32_t>(id), *image);
    }
  std::vector<int32_t> result;
  for (size_t id = 0; id < links.size(); ++id) result.push_back(orbits.find(static_cast<int32_t>(id)));
  return result;
}

}  // namespace ccforge::topo
