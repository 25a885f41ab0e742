// The one way ccforge writes a JSON document (reports, specs, indexes): indented by two, one
// trailing newline. Names in reports come from the file system, whose bytes need not be UTF-8;
// JSON cannot carry such bytes, so each invalid byte becomes U+FFFD instead of failing the
// whole report.
#pragma once

#include <nlohmann/json.hpp>

#include <string>

namespace ccforge::base {

template <typename Json>
std::string jsonDocument(const Json& document) {
  return document.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

}  // namespace ccforge::base
