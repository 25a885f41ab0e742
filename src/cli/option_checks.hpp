// Option validators CLI11 lacks: a floating-point range that also refuses nan and inf (CLI11's
// Range lets nan through, as every comparison with it is false), and a size that refuses a sign.
#pragma once

#include <CLI/CLI.hpp>

#include <cmath>
#include <string>

namespace ccforge::cli {

inline CLI::Validator finiteRange(double min, double max) {
  return CLI::Validator(
      [min, max](std::string& text) -> std::string {
        double v = 0;
        try {
          size_t used = 0;
          v = std::stod(text, &used);
          if (used != text.size()) return "'" + text + "' is not a number";
        } catch (const std::exception&) {
          return "'" + text + "' is not a number";
        }
        if (!std::isfinite(v) || v < min || v > max)
          return "'" + text + "' is not a number in [" + CLI::detail::to_string(min) + " - " + CLI::detail::to_string(max) + "]";
        return {};
      },
      "NUMBER in [" + CLI::detail::to_string(min) + " - " + CLI::detail::to_string(max) + "]");
}

// Before CLI::AsSizeValue, which reads "-1" as the largest size.
inline CLI::Validator unsignedSize() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        const size_t first = text.find_first_not_of(" \t");
        if (first != std::string::npos && (text[first] == '-' || text[first] == '+'))
          return "'" + text + "' is not a size: give a positive number of bytes, e.g. 2GB";
        return {};
      },
      "SIZE");
}

}  // namespace ccforge::cli
