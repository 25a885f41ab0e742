// Option validators CLI11 lacks: a floating-point range that also refuses nan and inf (CLI11's
// Range lets nan through, as every comparison with it is false), a byte size in ccforge's one grammar, and
// the rule every ccforge option follows: no value is empty or negative.
#pragma once

#include <CLI/CLI.hpp>

#include <cctype>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "base/byte_size.hpp"

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
          return "'" + text + "' is not a number in [" + CLI::detail::to_string(min) + " - " +
                 CLI::detail::to_string(max) + "]";
        return {};
      },
      "NUMBER in [" + CLI::detail::to_string(min) + " - " + CLI::detail::to_string(max) + "]");
}

// A byte size in the grammar every command reads (base/byte_size.hpp: 8, 1K, 64MB, 2GiB) within
// [min, max], rewritten to its number of bytes for the option's integer.
inline CLI::Validator byteSize(uint64_t min = 0, uint64_t max = UINT64_MAX) {
  return CLI::Validator(
      [min, max](std::string& text) -> std::string {
        try {
          const uint64_t bytes = base::parseByteSize(text);
          if (bytes < min || bytes > max)
            return "'" + text + "' is not a size in [" + std::to_string(min) + " - " + std::to_string(max) + "] bytes";
          text = std::to_string(bytes);
          return {};
        } catch (const std::invalid_argument& e) {
          return "'" + text + "' is not a size: " + e.what();
        }
      },
      "SIZE");
}

// CLI11 converts "-1" to an unsigned option as its largest value, and no ccforge option means
// anything by an empty string (`-o ""` would otherwise write to stdout) or a negative number.
// Applied to every value-taking option of every subcommand, so a new option cannot forget it.
inline void refuseEmptyAndNegativeValues(CLI::App& app) {
  const CLI::Validator rule(
      [](std::string& text) -> std::string {
        if (text.empty()) return "an empty value is not accepted";
        if (text[0] == '-' && text.size() > 1 && (std::isdigit(static_cast<unsigned char>(text[1])) || text[1] == '.'))
          return "'" + text + "' is negative: no ccforge option takes a negative number";
        return {};
      },
      "");
  for (CLI::Option* option : app.get_options([](CLI::Option* o) { return o->get_type_size_max() > 0; }))
    option->check(rule);
  for (CLI::App* sub : app.get_subcommands([](CLI::App*) { return true; })) refuseEmptyAndNegativeValues(*sub);
}

}  // namespace ccforge::cli
