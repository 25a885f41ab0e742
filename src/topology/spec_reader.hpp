// Reads topology specs (JSON, format in docs/topologies.md) into the Topology model.
// Every error is an InputError located at file:line:column and names the JSON pointer.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

#include "base/limits.hpp"
#include "topology/topology.hpp"

namespace ccforge::topo {

inline constexpr uint64_t kMaxSpecBytes = base::limits::kMaxSpecBytes;

// `baseDir` resolves box references given as relative paths.
Topology readTopology(std::string_view text, const std::string& sourceName, const std::filesystem::path& baseDir);
Topology readTopologyFile(const std::filesystem::path& path);

// A catalog name ("dgx1") or a path to a spec file. Catalog names win over files of the
// same name; anything that is not a catalog name is read as a path.
Topology loadTopology(std::string_view nameOrPath);

}  // namespace ccforge::topo
