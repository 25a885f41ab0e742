#include "synth/bounds/integer_network.hpp"

#include <limits>
#include <stdexcept>

namespace ccforge::synth {

IntegerLinks integerLinks(const topo::Topology& topology, const BigInt& multiplier) {
  IntegerLinks result;
  BigInt lcm = 1;
  for (const topo::Link& l : topology.links()) {
    BigInt den = boost::multiprecision::denominator(l.bandwidthGBps);
    lcm = boost::multiprecision::lcm(lcm, den);
  }
  result.scale = lcm * multiplier;
  for (const topo::Link& l : topology.links()) {
    Rational scaled = l.bandwidthGBps * result.scale;
    result.capacity.push_back(boost::multiprecision::numerator(scaled));
  }
  return result;
}

int64_t checkedCapacity(const BigInt& value, size_t links) {
  const BigInt limit = BigInt(std::numeric_limits<int64_t>::max()) / (links + 2);
  if (value > limit)
    throw std::overflow_error("bandwidths too fine-grained for an exact max-flow in 64 bits; use coarser fractions");
  return value.convert_to<int64_t>();
}

}  // namespace ccforge::synth
