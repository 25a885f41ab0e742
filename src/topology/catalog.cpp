#include "topology/catalog.hpp"

namespace ccforge::topo {

std::optional<std::string_view> catalogSpec(std::string_view name) {
  for (const CatalogEntry& e : catalogEntries())
    if (e.name == name) return e.spec;
  return std::nullopt;
}

}  // namespace ccforge::topo
