#include "synth/sccl/symmetry.hpp"

#include <algorithm>
#include <map>
#include <string>
#include <tuple>

namespace ccforge::synth::sccl {

std::vector<ProblemSymmetry> problemSymmetries(const topo::Topology& topology, const topo::AutomorphismGroup& group,
                                               const Problem& problem) {
  std::vector<ProblemSymmetry> out;
  if (problem.switched) return out;
  // Chunks are identified by (source, origin, target, piece) and their wanted set.
  std::map<std::tuple<int32_t, int32_t, int32_t, int32_t, std::vector<bool>>, int32_t> index;
  for (size_t c = 0; c < problem.demands.size(); ++c) {
    const ChunkDemand& d = problem.demands[c];
    index[{d.source, d.origin, d.target, d.piece, d.wanted}] = static_cast<int32_t>(c);
  }
  for (const auto& g : group.generators) {
    ProblemSymmetry sym;
    for (int32_t v : topology.gpus()) sym.rank.push_back(topology.rankOf(g[static_cast<size_t>(v)]));
    bool acts = true;
    for (const ChunkDemand& d : problem.demands) {
      std::vector<bool> wanted(d.wanted.size());
      for (size_t n = 0; n < wanted.size(); ++n) wanted[static_cast<size_t>(sym.rank[n])] = d.wanted[n];
      const bool targeted = problem.solved == semantics::CollectiveType::AllToAll;
      auto it = index.find({sym.rank[static_cast<size_t>(d.source)], sym.rank[static_cast<size_t>(d.origin)],
                            targeted ? sym.rank[static_cast<size_t>(d.target)] : d.target, d.piece, wanted});
      if (it == index.end()) {
        acts = false;
        break;
      }
      sym.chunk.push_back(it->second);
    }
    if (acts) out.push_back(std::move(sym));
  }
  return out;
}

namespace {

// Union-find whose representatives are the least members.
int32_t find(std::vector<int32_t>& parent, int32_t x) {
  while (parent[static_cast<size_t>(x)] != x)
    x = parent[static_cast<size_t>(x)] = parent[static_cast<size_t>(parent[static_cast<size_t>(x)])];
  return x;
}
void unite(std::vector<int32_t>& parent, int32_t a, int32_t b) {
  a = find(parent, a);
  b = find(parent, b);
  if (a != b) parent[static_cast<size_t>(std::max(a, b))] = std::min(a, b);
}
std::vector<int32_t> flatten(std::vector<int32_t> parent) {
  for (size_t i = 0; i < parent.size(); ++i) parent[i] = find(parent, static_cast<int32_t>(i));
  return parent;
}

}  // namespace

Orbits invariantOrbits(const Problem& problem, const std::vector<ProblemSymmetry>& symmetries) {
  const auto chunks = static_cast<int32_t>(problem.demands.size()), ranks = problem.ranks;
  const auto links = static_cast<int32_t>(problem.links.size());
  std::map<std::pair<int32_t, int32_t>, int32_t> linkOf;
  for (int32_t l = 0; l < links; ++l)
    linkOf[{problem.links[static_cast<size_t>(l)].from, problem.links[static_cast<size_t>(l)].to}] = l;
  std::vector<int32_t> time(static_cast<size_t>(chunks * ranks)), send(static_cast<size_t>(chunks * links));
  for (size_t i = 0; i < time.size(); ++i) time[i] = static_cast<int32_t>(i);
  for (size_t i = 0; i < send.size(); ++i) send[i] = static_cast<int32_t>(i);
  for (const ProblemSymmetry& g : symmetries)
    for (int32_t c = 0; c < chunks; ++c) {
      const int32_t gc = g.chunk[static_cast<size_t>(c)];
      for (int32_t n = 0; n < ranks; ++n) unite(time, c * ranks + n, gc * ranks + g.rank[static_cast<size_t>(n)]);
      for (int32_t l = 0; l < links; ++l) {
        const LogicalLink& link = problem.links[static_cast<size_t>(l)];
        const int32_t gl = linkOf.at({g.rank[static_cast<size_t>(link.from)], g.rank[static_cast<size_t>(link.to)]});
        unite(send, c * links + l, gc * links + gl);
      }
    }
  return Orbits{flatten(std::move(time)), flatten(std::move(send))};
}

namespace {

// x <=lex y, with one Boolean per position for "equal so far".
void requireLexLeq(smt::Query& query, const std::vector<smt::Term>& x, const std::vector<smt::Term>& y,
                   const std::string& name) {
  smt::TermStore& t = query.terms;
  smt::Term equalSoFar = t.boolConst(true);
  for (size_t i = 0; i < x.size(); ++i) {
    if (x[i] == y[i]) continue;
    query.require(t.implies(equalSoFar, t.le(x[i], y[i])));
    if (i + 1 == x.size()) break;
    const smt::Term next = t.boolVar(name + "_" + std::to_string(i));
    query.require(t.eq(next, t.andTerm({equalSoFar, t.eq(x[i], y[i])})));
    equalSoFar = next;
  }
}

}  // namespace

void breakPieceSymmetry(Encoding& encoding, const Problem& problem) {
  for (size_t c = 0; c + 1 < problem.demands.size(); ++c) {
    const ChunkDemand &a = problem.demands[c], &b = problem.demands[c + 1];
    if (a.source != b.source || a.origin != b.origin || a.target != b.target || a.wanted != b.wanted) continue;
    std::vector<smt::Term> x, y;
    for (int32_t n = 0; n < problem.ranks; ++n) {
      x.push_back(encoding.timeTerm(static_cast<int32_t>(c), n));
      y.push_back(encoding.timeTerm(static_cast<int32_t>(c + 1), n));
    }
    requireLexLeq(encoding.query(), x, y, "piece_" + std::to_string(c));
  }
}

void breakSymmetries(Encoding& encoding, const Problem& problem, const std::vector<ProblemSymmetry>& symmetries,
                     size_t prefix) {
  smt::TermStore& t = encoding.query().terms;
  const auto ranks = static_cast<size_t>(problem.ranks);
  for (size_t g = 0; g < symmetries.size(); ++g) {
    const ProblemSymmetry& sym = symmetries[g];
    // x[i] = time of (chunk, rank) in order; the image schedule holds at (g c, g n) what x holds at (c, n),
    // so g(x)[(c, n)] = time of (g^-1 c, g^-1 n).
    std::vector<int32_t> chunkInverse(sym.chunk.size()), rankInverse(ranks);
    for (size_t c = 0; c < sym.chunk.size(); ++c)
      chunkInverse[static_cast<size_t>(sym.chunk[c])] = static_cast<int32_t>(c);
    for (size_t n = 0; n < ranks; ++n) rankInverse[static_cast<size_t>(sym.rank[n])] = static_cast<int32_t>(n);
    smt::Term equalSoFar = t.boolConst(true);
    size_t used = 0;
    for (size_t c = 0; c < problem.demands.size() && used < prefix; ++c)
      for (size_t n = 0; n < ranks && used < prefix; ++n) {
        const smt::Term x = encoding.timeTerm(static_cast<int32_t>(c), static_cast<int32_t>(n));
        const smt::Term y = encoding.timeTerm(chunkInverse[c], rankInverse[n]);
        if (x == y) continue;
        encoding.query().require(t.implies(equalSoFar, t.le(x, y)));
        const smt::Term next = t.boolVar("lex_" + std::to_string(g) + "_" + std::to_string(used));
        encoding.query().require(t.eq(next, t.andTerm({equalSoFar, t.eq(x, y)})));
        equalSoFar = next;
        ++used;
      }
  }
}

}  // namespace ccforge::synth::sccl
