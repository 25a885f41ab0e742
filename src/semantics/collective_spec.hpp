// Custom collectives described as data (docs/collective-spec.md): a JSON file giving the
// buffer sizes and the chunk maps of the pre- and postcondition.
#pragma once

#include <filesystem>
#include <string>

#include "semantics/collective.hpp"

namespace ccforge::semantics {

// Throws InputError (with line:column for syntax errors, a JSON path for content errors).
CustomCollectiveSpec parseCollectiveSpec(const std::string& json, const std::string& sourceName);
CustomCollectiveSpec readCollectiveSpecFile(const std::filesystem::path& path);
// The spec as compact JSON that parseCollectiveSpec reads back, with no "--" in it (a "-" in a
// name is written \u002d), so that it can stand in an XML comment.
std::string collectiveSpecJson(const CustomCollectiveSpec& spec);

}  // namespace ccforge::semantics
