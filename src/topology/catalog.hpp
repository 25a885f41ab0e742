// The topology catalog (specs/topologies/*.json), compiled into the binary so that a
// topology can be named anywhere one is expected.
#pragma once

#include <optional>
#include <string_view>
#include <vector>

namespace ccforge::topo {

struct CatalogEntry {
  std::string_view name;  // file name without ".json"
  std::string_view spec;  // the JSON text
};

// Sorted by name.
const std::vector<CatalogEntry>& catalogEntries();
std::optional<std::string_view> catalogSpec(std::string_view name);

}  // namespace ccforge::topo
