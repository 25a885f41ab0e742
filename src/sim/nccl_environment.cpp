#include "sim/nccl_environment.hpp"

#include <charconv>
#include <stdexcept>
#include <strings.h>

namespace ccforge::sim {
namespace {

// NCCL's names (src/init.cc l.52-55) in its orders: functions, algorithms, protocols.
constexpr std::string_view kFunctions[5] = {"Broadcast", "Reduce", "AllGather", "ReduceScatter", "AllReduce"};
constexpr std::string_view kAlgorithmNames[7] = {"Tree",     "Ring", "CollNetDirect", "CollNetChain", "NVLS",
                                                 "NVLSTree", "PAT"};
constexpr std::string_view kProtocolNames[3] = {"LL", "LL128", "Simple"};
// NCCL's algorithm index of each modelled algorithm (CollNet, at 2 and 3, is not modelled).
constexpr size_t kNcclIndex[nccl::kAlgorithms] = {0, 1, 4, 5, 6};

bool sameName(std::string_view a, std::string_view b) {
  return a.size() == b.size() && strncasecmp(a.data(), b.data(), a.size()) == 0;
}

std::vector<std::string_view> splitOn(std::string_view s, char c) {
  std::vector<std::string_view> out;
  size_t start = 0;
  for (size_t i = 0; i <= s.size(); ++i)
    if (i == s.size() || s[i] == c) {
      if (i > start) out.push_back(s.substr(start, i - start));  // strtok skips empty tokens
      start = i + 1;
    }
  return out;
}

// tuning.cc parseList: "[func:]list[;func:list]...", a list of names or "^" and the names left out.
template <size_t N>
std::array<std::array<bool, N>, 5> parseList(std::string_view variable, std::string_view value,
                                             const std::string_view (&names)[N]) {
  std::array<std::array<bool, N>, 5> on{};
  for (auto& row : on) row.fill(true);
  const std::vector<std::string_view> entries = splitOn(value, ';');
  if (entries.empty()) throw std::invalid_argument(std::string(variable) + " is empty");
  for (size_t i = 0; i < entries.size(); ++i) {
    const std::vector<std::string_view> parts = splitOn(entries[i], ':');
    std::optional<std::string_view> prefix;
    std::string_view list = parts.empty() ? std::string_view() : parts.front();
    if (parts.size() >= 2) {
      prefix = parts[0];
      list = parts[1];
    } else if (i > 0) {
      throw std::invalid_argument(std::string(variable) + "=" + std::string(value) +
                                  ": every entry but the first needs a function prefix (e.g. allreduce:ring)");
    }
    const bool except = !list.empty() && list.front() == '^';
    if (except) list.remove_prefix(1);
    bool matched = false;
    for (size_t f = 0; f < 5; ++f) {
      if (prefix && !sameName(*prefix, kFunctions[f])) continue;
      matched = true;
      on[f].fill(except);
      for (std::string_view element : splitOn(list, ',')) {
        size_t e = 0;
        while (e < N && !sameName(element, names[e])) ++e;
        if (e == N)
          throw std::invalid_argument(std::string(variable) + ": unknown name '" + std::string(element) + "'");
        on[f][e] = !except;
      }
    }
    if (!matched)
      throw std::invalid_argument(std::string(variable) + ": unknown function '" + std::string(*prefix) +
                                  "' (Broadcast, Reduce, AllGather, ReduceScatter, AllReduce)");
  }
  return on;
}

int32_t channelCount(std::string_view variable, std::string_view value) {
  int32_t v = 0;
  auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), v);
  if (ec != std::errc() || end != value.data() + value.size() || v < 0 || v > 64)
    throw std::invalid_argument(std::string(variable) + " takes 0 to 64, not '" + std::string(value) + "'");
  return v;
}

// The function row of a collective; nullopt for alltoall (point-to-point, no row).
std::optional<size_t> functionOf(semantics::CollectiveType c) {
  switch (c) {
    case semantics::CollectiveType::Broadcast: return 0;
    case semantics::CollectiveType::Reduce: return 1;
    case semantics::CollectiveType::AllGather: return 2;
    case semantics::CollectiveType::ReduceScatter: return 3;
    case semantics::CollectiveType::AllReduce: return 4;
    default: return std::nullopt;
  }
}

}  // namespace

bool NcclEnvironment::algorithmOn(semantics::CollectiveType c, nccl::Algorithm a) const {
  const std::optional<size_t> f = functionOf(c);
  return !algorithms || !f || (*algorithms)[*f][static_cast<size_t>(a)];
}

std::optional<bool> NcclEnvironment::protocolOn(semantics::CollectiveType c, size_t protocol) const {
  const std::optional<size_t> f = functionOf(c);
  if (!protocols || !f) return std::nullopt;
  return (*protocols)[*f][protocol];
}

NcclEnvironment parseNcclEnvironment(const std::vector<std::string>& settings) {
  NcclEnvironment env;
  for (const std::string& setting : settings) {
    const size_t eq = setting.find('=');
    if (eq == std::string::npos || eq == 0)
      throw std::invalid_argument("--env takes NAME=VALUE, not '" + setting + "'");
    const std::string_view name = std::string_view(setting).substr(0, eq);
    const std::string_view value = std::string_view(setting).substr(eq + 1);
    if (name == "NCCL_ALGO") {
      const auto all = parseList(name, value, kAlgorithmNames);
      std::array<std::array<bool, nccl::kAlgorithms>, 5> on{};
      for (size_t f = 0; f < 5; ++f)
        for (size_t a = 0; a < nccl::kAlgorithms; ++a) on[f][a] = all[f][kNcclIndex[a]];
      env.algorithms = on;
    } else if (name == "NCCL_PROTO") {
      env.protocols = parseList(name, value, kProtocolNames);
    } else if (name == "NCCL_MIN_NCHANNELS") {
      env.minChannels = channelCount(name, value);
    } else if (name == "NCCL_MAX_NCHANNELS") {
      env.maxChannels = channelCount(name, value);
      if (*env.maxChannels == 0) throw std::invalid_argument("NCCL_MAX_NCHANNELS must be at least 1");
    } else if (name == "NCCL_LAUNCH_MODE") {
      if (sameName(value, "GROUP"))
        env.groupLaunch = true;
      else if (sameName(value, "PARALLEL"))
        env.groupLaunch = false;
      else
        throw std::invalid_argument("NCCL_LAUNCH_MODE takes PARALLEL or GROUP, not '" + std::string(value) + "'");
    } else if (name == "NCCL_NVLS_ENABLE") {
      if (value == "0")
        env.nvls = false;
      else if (value == "1")
        env.nvls = true;
      else if (value != "2")
        throw std::invalid_argument("NCCL_NVLS_ENABLE takes 0, 1 or 2, not '" + std::string(value) + "'");
    } else {
      throw std::invalid_argument("--env " + std::string(name) +
                                  ": the model takes NCCL_ALGO, NCCL_PROTO, NCCL_MIN_NCHANNELS, NCCL_MAX_NCHANNELS, "
                                  "NCCL_NVLS_ENABLE and NCCL_LAUNCH_MODE");
    }
    env.settings.push_back(setting);
  }
  return env;
}

}  // namespace ccforge::sim
