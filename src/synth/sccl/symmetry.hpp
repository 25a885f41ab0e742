// Symmetry breaking from the topology's automorphisms. An automorphism of the weighted graph
// that maps the collective's chunks onto its chunks (for rooted collectives: one that fixes the
// root) maps every schedule to a schedule. Among the images of a schedule under the whole group
// the one whose time vector is lexicographically least satisfies time <= g(time) for every
// generator g, so requiring that (on a prefix of the vector) keeps every instance's verdict.
#pragma once

#include <cstdint>
#include <vector>

#include "topology/automorphisms.hpp"
#include "synth/sccl/encoding.hpp"

namespace ccforge::synth::sccl {

// Per usable generator: rank permutation and the chunk permutation it induces.
struct ProblemSymmetry {
  std::vector<int32_t> rank;   // rank -> image rank
  std::vector<int32_t> chunk;  // chunk -> image chunk
};

// The generators that act on the problem; none when a logical link passes a switch (the
// choice of path need not be invariant).
std::vector<ProblemSymmetry> problemSymmetries(const topo::Topology& topology, const topo::AutomorphismGroup& group,
                                               const Problem& problem);

// The orbits of (chunk, rank) and (chunk, link) pairs under the group the symmetries generate.
Orbits invariantOrbits(const Problem& problem, const std::vector<ProblemSymmetry>& symmetries);

// Adds time <=lex g(time) over the first `prefix` time entries for every symmetry.
void breakSymmetries(Encoding& encoding, const Problem& problem, const std::vector<ProblemSymmetry>& symmetries,
                     size_t prefix = 64);

// The C pieces of one rank's share are interchangeable: a schedule with two pieces' rows of
// times swapped is a schedule. In the same chunk-major order, the lexicographically least one
// has the rows of consecutive pieces in order, which is required here over whole rows.
void breakPieceSymmetry(Encoding& encoding, const Problem& problem);

}  // namespace ccforge::synth::sccl
