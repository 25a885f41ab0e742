// What tests of the verifier ask of a report, and where their fixtures are.
#pragma once

#include <algorithm>
#include <filesystem>
#include <string>
#include <string_view>

#include "semantics/runtime_profile.hpp"
#include "verify/options.hpp"
#include "verify/report.hpp"

namespace ccforge::test {

// tests/fixtures/<relative>
inline std::filesystem::path fixture(const std::string& relative) {
  return std::filesystem::path(CCFORGE_FIXTURES) / relative;
}

inline bool hasRule(const verify::FileReport& r, std::string_view rule) {
  return std::any_of(r.violations.begin(), r.violations.end(),
                     [&](const verify::Violation& v) { return v.rule == rule; });
}

inline verify::Options legacyOptions() {
  verify::Options o;
  o.profile = semantics::legacyProfile();
  return o;
}

}  // namespace ccforge::test
