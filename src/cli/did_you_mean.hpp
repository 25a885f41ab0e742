// A hint for a mistyped command or option: the known name nearest the word typed, by edit
// distance, when it is near enough to be the one meant.
#pragma once

#include <CLI/CLI.hpp>

#include <optional>
#include <string>
#include <vector>

namespace ccforge::cli {

// The candidate at the smallest edit distance from `word` (the first of equals), if that distance
// is at most a third of the word's length (at least 1): "verfy" -> "verify", "--slot" -> "--slots".
std::optional<std::string> nearestName(const std::string& word, const std::vector<std::string>& candidates);

// Lines for the arguments of a failed parse that name no command or option of `app` (the
// subcommand the arguments name, or the top level): "did you mean" the near name, if one is near;
// a word that names no command is reported either way.
std::vector<std::string> didYouMean(const CLI::App& app, const std::vector<std::string>& args);

}  // namespace ccforge::cli
