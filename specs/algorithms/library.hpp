// The algorithm library: every algorithm of the MSCCLang paper and of the msccl-tools
// examples as a short DSL program, parameterised, under a stable name (`ccforge list`).
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "dsl/program.hpp"

namespace ccforge::algorithms {

struct Parameter {
  std::string name;
  int64_t defaultValue = 0;
  std::string help;
  int64_t min = 1;
  int64_t max = 4096;
};

using Arguments = std::map<std::string, int64_t, std::less<>>;  // every parameter, defaults applied

struct LibraryEntry {
  std::string name;
  std::string summary;
  std::vector<Parameter> parameters;
  ir::Protocol defaultProtocol = ir::Protocol::Simple;
  std::string defaultTarget = "msccl-executor";  // custom collectives need msccl-legacy
  // Throws std::invalid_argument for parameters the algorithm cannot use.
  std::function<dsl::Program(const Arguments&, ir::Protocol)> build;
};

const std::vector<LibraryEntry>& library();
const LibraryEntry* findAlgorithm(std::string_view name);
// "key=value" settings over the entry's defaults; throws std::invalid_argument for an unknown
// key, a malformed value or a repeated key.
Arguments resolveArguments(const LibraryEntry& entry, const std::vector<std::string>& settings);

struct Instance {
  const LibraryEntry* entry = nullptr;
  Arguments arguments;
  ir::Protocol protocol = ir::Protocol::Simple;
  dsl::Program program;
};
// The program NAME key=value... stands for; `protocol` overrides the algorithm's default.
// Throws std::invalid_argument (unknown name or parameter, parameters the algorithm rejects).
Instance instantiate(std::string_view name, const std::vector<std::string>& settings,
                     std::optional<ir::Protocol> protocol = std::nullopt);

}  // namespace ccforge::algorithms
