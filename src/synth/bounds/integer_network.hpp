// A topology's links as an integer flow network: capacities are the exact bandwidths times
// one common factor, so max-flow values convert back to exact rationals.
#pragma once

#include <cstdint>
#include <vector>

#include "topology/topology.hpp"

namespace ccforge::synth {

using topo::BigInt;
using topo::Rational;

struct IntegerLinks {
  BigInt scale;                  // integer capacity = bandwidth (GB/s) * scale
  std::vector<BigInt> capacity;  // per link id
};

// `multiplier` scales further (e.g. by the denominator of a candidate rate).
IntegerLinks integerLinks(const topo::Topology& topology, const BigInt& multiplier = 1);

// Throws std::overflow_error when a value does not fit the max-flow's int64 with headroom
// for summing every link.
int64_t checkedCapacity(const BigInt& value, size_t links);

}  // namespace ccforge::synth
