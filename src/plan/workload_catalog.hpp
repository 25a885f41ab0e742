// The built-in workloads (specs/workloads/*.json), compiled in by embed_workloads.cmake.
#pragma once

#include <string_view>
#include <vector>

namespace ccforge::plan {

struct WorkloadCatalogEntry {
  std::string_view name;
  std::string_view json;
};

// Sorted by name.
const std::vector<WorkloadCatalogEntry>& workloadCatalog();

}  // namespace ccforge::plan
