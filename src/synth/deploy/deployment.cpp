#include "synth/deploy/deployment.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <stdexcept>

#include "base/output_file.hpp"
#include "ir/writer.hpp"
#include "semantics/selection.hpp"

namespace ccforge::synth::deploy {
namespace {

// Sizes from here on do not fit the header's int64 fields (and no machine has them).
constexpr double kUnwritableBytes = 0x1p63;

// The smallest count (of any value) whose divisibility test passes where `like` fails it.
uint64_t smallestServedCount(semantics::Selector s, const ir::Algorithm& header, semantics::SelectionCall like) {
  const uint64_t limit = static_cast<uint64_t>(std::max(header.nchunksperloop, 1));
  for (like.count = 1; like.count <= limit; ++like.count) {
    const semantics::Rejection r = rejection(s, header, like);
    if (r == semantics::Rejection::None || r == semantics::Rejection::Window) return like.count;
  }
  return 0;
}

// Why `s` never picks `header` for one of the calls users make; nullopt when it picks it for one.
std::optional<std::string> neverPicked(semantics::Selector s, const ir::Algorithm& header) {
  const std::vector<semantics::SelectionCall> calls = consideredCalls(s, header.coll, header.ngpus);
  if (calls.empty()) return fmt::format("no NCCL call reaches coll=\"{}\"", header.collName);
  semantics::Rejection furthest = semantics::Rejection::NotLoaded;
  const semantics::SelectionCall* example = &calls.front();
  for (const semantics::SelectionCall& c : calls) {
    const semantics::Rejection r = rejection(s, header, c);
    if (r == semantics::Rejection::None) return std::nullopt;
    if (r > furthest) {
      furthest = r;
      example = &c;
    }
  }
  switch (furthest) {
    case semantics::Rejection::NotLoaded: return notLoadedReason(s, header);
    case semantics::Rejection::CallForm: return std::string("no call of the forms it serves is passed to it");
    case semantics::Rejection::Divisibility:
      return fmt::format(
          "nchunksperloop={} divides {} for no power-of-two count; it serves only counts that are "
          "multiples of {}",
          header.nchunksperloop, divisibilityTerm(s, header.coll, header.ngpus),
          smallestServedCount(s, header, *example));
    case semantics::Rejection::Window:
      return fmt::format("it serves no power-of-two count within {}", windowText(semantics::sizeWindowOf(header)));
    default: return std::string("no call matches it");
  }
}

// Why some selector of the profile never picks `header`, naming the selectors that share a
// reason; empty when every one picks it for some call.
std::string unpicked(const ir::Algorithm& header, const semantics::RuntimeProfile& profile) {
  std::vector<std::pair<std::string, std::vector<std::string>>> reasons;  // reason, selectors
  for (semantics::Selector s : profile.selectors) {
    const std::optional<std::string> reason = neverPicked(s, header);
    if (!reason) continue;
    auto same = std::find_if(reasons.begin(), reasons.end(), [&](const auto& r) { return r.first == *reason; });
    if (same == reasons.end()) same = reasons.insert(reasons.end(), {*reason, {}});
    same->second.push_back("the " + std::string(selectorPhrase(s)));
  }
  std::string why;
  for (const auto& [reason, selectors] : reasons) {
    std::string who;
    for (size_t k = 0; k < selectors.size(); ++k) who += (k == 0 ? "" : " and ") + selectors[k];
    why += fmt::format("{}{} (under {})", why.empty() ? "" : "; ", reason, who);
  }
  return why;
}

// The whole byte counts of `r` within the compiler's window `compiled`; nullopt when none.
std::optional<semantics::SizeWindow> wholeBytes(const SizeRange& r, const semantics::SizeWindow& compiled) {
  if (r.low >= kUnwritableBytes) return std::nullopt;
  const int64_t low = std::max(static_cast<int64_t>(std::ceil(r.low)), compiled.minBytes);
  if (!r.high || *r.high >= kUnwritableBytes) return semantics::SizeWindow{low, std::nullopt};
  // [low, high) holds the sizes up to ceil(high) - 1; a maxBytes of 0 would read as unbounded.
  const int64_t high = static_cast<int64_t>(std::ceil(*r.high)) - 1;
  if (high < low || high < 1) return std::nullopt;
  return semantics::SizeWindow{low, high};
}

// Gives windows to candidates that compete for the same calls, up to each one's compiled maxBytes.
void assignWindows(const std::vector<size_t>& members, const std::vector<DeployCandidate>& candidates,
                   const std::vector<ir::Algorithm>& headers, std::vector<Deployment>& out) {
  std::vector<CostCurve> curves;
  std::vector<std::optional<double>> ends;
  std::vector<double> starts;
  for (size_t i : members) {
    curves.push_back(candidates[i].cost);
    starts.push_back(candidates[i].competesFrom);
    const std::optional<int64_t> max = semantics::sizeWindowOf(headers[i]).maxBytes;
    ends.push_back(max ? std::optional<double>(static_cast<double>(*max) + 1) : std::nullopt);
  }
  const std::vector<std::optional<SizeRange>> ranges = fastestRanges(curves, ends, starts);
  for (size_t m = 0; m < members.size(); ++m) {
    const size_t i = members[m];
    out[i].window = ranges[m] ? wholeBytes(*ranges[m], semantics::sizeWindowOf(headers[i])) : std::nullopt;
  }
}

}  // namespace

void setWindow(ir::Algorithm& algorithm, const semantics::SizeWindow& window) {
  algorithm.minBytes = window.minBytes;
  algorithm.maxBytes = window.maxBytes.value_or(0);
}

std::string windowText(const semantics::SizeWindow& w) {
  return w.maxBytes ? fmt::format("{}..{} bytes", w.minBytes, *w.maxBytes)
                    : fmt::format("{}..unbounded bytes", w.minBytes);
}

std::string outcomeText(const Deployment& d, const std::string& file, bool writing) {
  if (!d.window) return (writing ? ", not written: " : ", not deployable: ") + d.notWritten;
  const std::string sure = d.overNccl ? fmt::format(" (at least x{:.2f} NCCL's algbw there, x{:.2f} needed)",
                                                    d.overNccl->least, d.overNccl->needed)
                                      : "";
  return (writing ? ", written to " + file + " for " : ", deployable for ") + windowText(*d.window) + sure;
}

void addDeploymentFields(nlohmann::ordered_json& e, const Deployment& d) {
  if (!d.window) {
    e["not_written"] = d.notWritten;
    return;
  }
  e["min_bytes"] = d.window->minBytes;
  e["max_bytes"] = d.window->maxBytes ? nlohmann::ordered_json(*d.window->maxBytes) : nlohmann::ordered_json(nullptr);
  if (d.overNccl) e["gain_over_nccl"] = {{"least", d.overNccl->least}, {"needed", d.overNccl->needed}};
}

std::string writeProgram(const std::string& directory, const std::string& fileName, const ir::Algorithm& algorithm) {
  std::error_code ec;
  std::filesystem::create_directories(directory, ec);
  if (ec) throw base::OutputError("cannot create the directory " + directory + ": " + ec.message());
  std::string path = (std::filesystem::path(directory) / fileName).string();
  base::writeOutputFile(path, ir::toXml(algorithm));
  return path;
}

std::vector<Deployment> planDeployment(const std::vector<DeployCandidate>& candidates,
                                       const semantics::RuntimeProfile& profile) {
  const size_t n = candidates.size();
  std::vector<Deployment> out(n);
  std::vector<ir::Algorithm> headers;  // the selection reads the header only
  std::vector<bool> competing(n);
  for (size_t i = 0; i < n; ++i) {
    headers.push_back(*candidates[i].algorithm);
    headers.back().gpus.clear();
    out[i].notWritten = unpicked(headers[i], profile);
    competing[i] = out[i].notWritten.empty();
  }
  // Each pass gives the competing candidates their windows and drops those no selector picks
  // within theirs, whose sizes the next pass gives to the others.
  for (bool dropped = true; dropped;) {
    dropped = false;
    // Candidates compete when a call could go to either: same collective and rank count, and
    // a call form in common (with two forms: all of them when one serves both).
    std::map<std::pair<ir::CollectiveKind, int32_t>, std::vector<size_t>> byCollective;
    for (size_t i = 0; i < n; ++i)
      if (competing[i]) byCollective[{headers[i].coll, headers[i].ngpus}].push_back(i);
    for (const auto& [collective, members] : byCollective) {
      const bool bothForms = std::any_of(members.begin(), members.end(), [&](size_t i) {
        return headers[i].servesInPlace() && headers[i].servesOutOfPlace();
      });
      std::map<std::pair<bool, bool>, std::vector<size_t>> byForms;
      for (size_t i : members)
        byForms[bothForms ? std::pair(true, true)
                          : std::pair(headers[i].servesInPlace(), headers[i].servesOutOfPlace())]
            .push_back(i);
      for (const auto& [forms, group] : byForms) assignWindows(group, candidates, headers, out);
    }
    for (size_t i = 0; i < n; ++i) {
      if (!competing[i] || !out[i].window) continue;
      ir::Algorithm windowed = headers[i];
      setWindow(windowed, *out[i].window);
      const std::string why = unpicked(windowed, profile);
      if (why.empty()) continue;
      out[i].notWritten = why;
      out[i].window.reset();
      competing[i] = false;
      dropped = true;
    }
  }
  for (size_t i = 0; i < n; ++i)
    if (competing[i] && !out[i].window) out[i].notWritten = "another program written is predicted faster at every size";
  return out;
}

}  // namespace ccforge::synth::deploy
