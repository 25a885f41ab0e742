#include "synth/sccl/symmetry.hpp"

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
      const bool targeted = problem.solved == CollectiveType::AllToAll;
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

void breakSymmetries(Encoding& encoding, const Problem& problem, const std::vector<ProblemSymmetry>& symmetries,
                     size_t prefix) {
  smt::TermStore& t = encoding.query().terms;
  const auto ranks = static_cast<size_t>(problem.ranks);
  for (size_t g = 0; g < symmetries.size(); ++g) {
    const ProblemSymmetry& sym = symmetries[g];
    // x[i] = time of (chunk, rank) in order; the image schedule holds at (g c, g n) what x holds at (c, n),
    // so g(x)[(c, n)] = time of (g^-1 c, g^-1 n).
    std::vector<int32_t> chunkInverse(sym.chunk.size()), rankInverse(ranks);
    for (size_t c = 0; c < sym.chunk.size(); ++c) chunkInverse[static_cast<size_t>(sym.chunk[c])] = static_cast<int32_t>(c);
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
