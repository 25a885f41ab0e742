#include "verify/connections.hpp"

#include <fmt/format.h>

#include "ir/names.hpp"

namespace ccforge::verify {
namespace {

std::string tbName(const semantics::LoadedProgram& index, int32_t tb) {
  return fmt::format("rank {} tb {}", index.rankOf(tb), index.idOf(tb));
}

std::string stepRole(const semantics::LoadedProgram& index, uint32_t s) {
  const semantics::LoadedStep& st = index.step(s);
  return fmt::format("{} cnt={}", ir::opTypeName(st.type), st.cnt);
}

void ownership(const semantics::LoadedProgram& index, const semantics::LoadedConnection& c, Findings& findings) {
  auto report = [&](int32_t first, const std::vector<int32_t>& extra, const char* verb) {
    for (int32_t tb : extra)
      findings.error(Check::Connections, "connections.ownership", index.threadBlock(tb).where,
                     fmt::format("{} and {} both {} on connection {}: they would corrupt each other's FIFO state",
                                 tbName(index, first), tbName(index, tb), verb, c.describe()),
                     {StepRef{index.rankOf(first), index.idOf(first), -1, -1, index.threadBlock(first).where, verb},
                      StepRef{index.rankOf(tb), index.idOf(tb), -1, -1, index.threadBlock(tb).where, verb}});
  };
  report(c.sendTb, c.extraSendTbs, "send");
  report(c.recvTb, c.extraRecvTbs, "receive");
}

void pairing(const semantics::LoadedProgram& index, const semantics::LoadedConnection& c, Findings& findings) {
  if (c.sendTb < 0 || c.recvTb < 0) {
    bool sends = c.sendTb >= 0;
    const auto& steps = sends ? c.sendSteps : c.recvSteps;
    if (steps.empty()) {
      // The runtime connects every declared peer, steps or none (msccl_parser.cc:674-681 counts the
      // block's peers on its channel; msccl_setup.cc:103-112 connects them all), and NCCL's setup
      // pairs each rank's send connections with the peer's receive connections.
      const int32_t tb = sends ? c.sendTb : c.recvTb;
      findings.error(
          Check::Connections, "connections.unmatched", index.threadBlock(tb).where,
          fmt::format("{} declares {} peer {} on channel {} but has no step that uses it, and no thread "
                      "block of rank {} declares the matching {} peer {} there: the runtime connects every "
                      "declared peer when it loads the file, and the two ranks' connection setup no longer "
                      "pairs",
                      tbName(index, tb), sends ? "send" : "receive", sends ? c.receiver : c.sender, c.channel,
                      sends ? c.receiver : c.sender, sends ? "receive" : "send", sends ? c.sender : c.receiver));
      return;
    }
    uint32_t first = steps.front();
    findings.error(
        Check::Connections, "connections.unmatched", index.step(first).where,
        sends
            ? fmt::format("{} sends to rank {} on channel {}, but no thread block of rank {} receives from rank {} on "
                          "channel {}",
                          tbName(index, c.sendTb), c.receiver, c.channel, c.receiver, c.sender, c.channel)
            : fmt::format("{} receives from rank {} on channel {}, but no thread block of rank {} sends to rank {} "
                          "on channel {}",
                          tbName(index, c.recvTb), c.sender, c.channel, c.sender, c.receiver, c.channel),
        {stepRef(index, first, stepRole(index, first))});
    return;
  }
  const size_t n = std::min(c.sendSteps.size(), c.recvSteps.size());
  for (size_t k = 0; k < n; ++k) {
    uint32_t s = c.sendSteps[k], r = c.recvSteps[k];
    if (index.step(s).cnt == index.step(r).cnt) continue;
    findings.error(Check::Connections, "connections.cnt", index.step(r).where,
                   fmt::format("transfer {} on connection {}: the sender's step has cnt={} but the receiver's has "
                               "cnt={}; both sides must split a step into the same transfers",
                               k, c.describe(), index.step(s).cnt, index.step(r).cnt),
                   {stepRef(index, s, stepRole(index, s)), stepRef(index, r, stepRole(index, r))});
  }
  if (c.sendSteps.size() != c.recvSteps.size()) {
    bool moreSends = c.sendSteps.size() > c.recvSteps.size();
    uint32_t extra = moreSends ? c.sendSteps[n] : c.recvSteps[n];
    findings.error(
        Check::Connections, "connections.count", index.step(extra).where,
        fmt::format("per tile iteration {} sends {} transfers on connection {} but {} receives {}; the "
                    "connection's counters diverge (this or the next kernel hangs or reads garbage)",
                    tbName(index, c.sendTb), c.sendSteps.size(), c.describe(), tbName(index, c.recvTb),
                    c.recvSteps.size()),
        {stepRef(index, extra,
                 std::string(moreSends ? "unmatched send: " : "unmatched receive: ") + stepRole(index, extra))});
  }
}

}  // namespace

bool checkConnections(const semantics::LoadedProgram& index, Findings& findings) {
  bool sound = true;
  for (const semantics::LoadedConnection& c : index.connections()) {
    if (!c.extraSendTbs.empty() || !c.extraRecvTbs.empty()) {
      sound = false;
      ownership(index, c, findings);
    }
    pairing(index, c, findings);
  }
  return sound;
}

}  // namespace ccforge::verify
