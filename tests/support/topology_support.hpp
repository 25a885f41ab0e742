// Topologies the tests derive from the catalog.
#pragma once

#include <string>

#include "topology/catalog.hpp"
#include "topology/spec_reader.hpp"

namespace ccforge::test {

// mi250-1's xGMI graph, named mi250-1-no-relay, on a fabric that does not relay: the catalog
// spec without its "gpu_relay".
inline topo::Topology mi250WithoutRelay() {
  std::string spec(*topo::catalogSpec("mi250-1"));
  for (const auto& [from, to] : {std::pair<std::string, std::string>{"\"gpu_relay\": true,", ""},
                                 {"\"name\": \"mi250-1\"", "\"name\": \"mi250-1-no-relay\""}})
    spec.replace(spec.find(from), from.size(), to);
  return topo::readTopology(spec, "mi250-1-no-relay.json", {});
}

}  // namespace ccforge::test
