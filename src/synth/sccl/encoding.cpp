#include "synth/sccl/encoding.hpp"

#include <algorithm>
#include <map>
#include <numeric>
#include <set>
#include <string>

#include "semantics/size_arithmetic.hpp"

namespace ccforge::synth::sccl {

using smt::Term;

int32_t Schedule::rounds() const { return std::accumulate(roundsPerStep.begin(), roundsPerStep.end(), 0); }

Encoding::Encoding(const Problem& problem, int32_t steps, std::optional<int32_t> rounds, const Orbits* invariant)
    : problem_(problem), steps_(steps), invariant_(invariant) {
  query_.name = "synth C=" + std::to_string(problem.chunks) + " S=" + std::to_string(steps) +
                " R=" + (rounds ? std::to_string(*rounds) : std::string("free"));
  declare();
  encodeSends();
  encodeBandwidth(rounds);
}

Term Encoding::timeTerm(int32_t chunk, int32_t rank) const {
  return time_[static_cast<size_t>(chunk)][static_cast<size_t>(rank)];
}

void Encoding::declare() {
  smt::TermStore& t = query_.terms;
  const Term never = t.intConst(steps_ + 1), last = t.intConst(steps_);
  for (size_t c = 0; c < problem_.demands.size(); ++c) {
    const ChunkDemand& d = problem_.demands[c];
    auto& row = time_.emplace_back();
    for (int32_t n = 0; n < problem_.ranks; ++n) {
      const int32_t hops = problem_.distance[static_cast<size_t>(d.source)][static_cast<size_t>(n)];
      const bool wanted = d.wanted[static_cast<size_t>(n)];
      const size_t self = c * static_cast<size_t>(problem_.ranks) + static_cast<size_t>(n);
      if (invariant_ && static_cast<size_t>(invariant_->time[self]) != self) {
        const auto rep = static_cast<size_t>(invariant_->time[self]);
        const auto ranks = static_cast<size_t>(problem_.ranks);
        const Term shared = time_[rep / ranks][rep % ranks];  // an earlier pair of the same orbit
        row.push_back(shared);
      } else if (n == d.source) {
        row.push_back(t.intConst(0));
      } else if (hops < 0 || hops > steps_) {
        if (wanted) query_.require(t.boolConst(false));  // cannot arrive in time
        row.push_back(never);
      } else {
        Term v = t.intVar("t_" + std::to_string(c) + "_" + std::to_string(n));
        query_.require(t.le(t.intConst(hops), v));
        query_.require(t.le(v, wanted ? last : never));
        row.push_back(v);
      }
    }
  }
}

void Encoding::encodeSends() {
  smt::TermStore& t = query_.terms;
  const Term last = t.intConst(steps_);
  for (size_t c = 0; c < problem_.demands.size(); ++c) {
    const ChunkDemand& d = problem_.demands[c];
    const auto& hops = problem_.distance[static_cast<size_t>(d.source)];
    auto& row = send_.emplace_back(problem_.links.size());
    std::vector<std::vector<Term>> incoming(static_cast<size_t>(problem_.ranks));
    for (size_t l = 0; l < problem_.links.size(); ++l) {
      const LogicalLink& link = problem_.links[l];
      const int32_t ha = hops[static_cast<size_t>(link.from)];
      if (link.to == d.source || ha < 0 || ha + 1 > steps_) continue;
      const size_t self = c * problem_.links.size() + l;
      if (invariant_ && static_cast<size_t>(invariant_->send[self]) != self) {
        const auto rep = static_cast<size_t>(invariant_->send[self]);
        row[l] = send_[rep / problem_.links.size()][rep % problem_.links.size()];
        if (row[l]) incoming[static_cast<size_t>(link.to)].push_back(*row[l]);
        continue;
      }
      Term s = t.boolVar("s_" + std::to_string(c) + "_" + std::to_string(link.from) + "_" + std::to_string(link.to));
      const Term ta = time_[c][static_cast<size_t>(link.from)], tb = time_[c][static_cast<size_t>(link.to)];
      query_.require(t.implies(s, t.lt(ta, tb)));
      query_.require(t.implies(s, t.le(tb, last)));
      row[l] = s;
      incoming[static_cast<size_t>(link.to)].push_back(s);
    }
    for (int32_t n = 0; n < problem_.ranks; ++n) {
      const size_t self = c * static_cast<size_t>(problem_.ranks) + static_cast<size_t>(n);
      if (n == d.source || (invariant_ && static_cast<size_t>(invariant_->time[self]) != self)) continue;
      const Term tn = time_[c][static_cast<size_t>(n)];
      query_.require(t.implies(t.le(tn, last), t.orTerm(incoming[static_cast<size_t>(n)])));
    }
  }
}

void Encoding::encodeBandwidth(std::optional<int32_t> rounds) {
  smt::TermStore& t = query_.terms;
  // Each step's rounds as a choice among 1..maxRounds (Booleans, exactly one true), so that every
  // capacity constraint compares a count with a constant: no products with a variable.
  const int32_t maxRounds = rounds ? *rounds - steps_ + 1 : freeRoundsLimit();
  std::vector<std::vector<Term>> choice(static_cast<size_t>(steps_));  // [step][k - 1]: step has k rounds
  for (int32_t s = 1; s <= steps_; ++s) {
    auto& options = choice[static_cast<size_t>(s - 1)];
    if (maxRounds == 1) {
      options.push_back(t.boolConst(true));
    } else {
      for (int32_t k = 1; k <= maxRounds; ++k)
        options.push_back(t.boolVar("r_" + std::to_string(s) + "_" + std::to_string(k)));
      query_.require(t.orTerm(options));
      for (size_t a = 0; a < options.size(); ++a)
        for (size_t b = a + 1; b < options.size(); ++b)
          query_.require(t.orTerm({t.notTerm(options[a]), t.notTerm(options[b])}));
    }
    std::vector<Term> value;
    for (int32_t k = 1; k <= maxRounds; ++k)
      value.push_back(t.ite(options[static_cast<size_t>(k - 1)], t.intConst(k), t.intConst(0)));
    rounds_.push_back(t.add(value));
  }
  if (rounds && maxRounds > 1) query_.require(t.eq(t.add(rounds_), t.intConst(*rounds)));

  // arrives[c][n][s]: chunk c reaches rank n in step s; one term each, shared by every link.
  std::map<std::tuple<size_t, int32_t, int32_t>, Term> arrives;
  auto arrival = [&](size_t c, int32_t n, int32_t s) {
    auto [it, fresh] = arrives.try_emplace({c, n, s}, Term{});
    if (fresh) it->second = t.eq(time_[c][static_cast<size_t>(n)], t.intConst(s));
    return it->second;
  };
  const size_t physical = problem_.capacityNum.size();
  for (int32_t s = 1; s <= steps_; ++s) {
    std::vector<std::vector<Term>> carried(physical);
    for (size_t c = 0; c < problem_.demands.size(); ++c) {
      const auto& hops = problem_.distance[static_cast<size_t>(problem_.demands[c].source)];
      for (size_t l = 0; l < problem_.links.size(); ++l) {
        const auto& send = send_[c][l];
        const LogicalLink& link = problem_.links[l];
        if (!send || hops[static_cast<size_t>(link.from)] + 1 > s || hops[static_cast<size_t>(link.to)] > s) continue;
        const Term moved = t.andTerm({*send, arrival(c, link.to, s)});
        for (int32_t e : link.physical) carried[static_cast<size_t>(e)].push_back(moved);
      }
    }
    for (size_t e = 0; e < physical; ++e) {
      if (carried[e].empty()) continue;
      const Term count = t.countTrue(carried[e]);
      for (int32_t k = 1; k <= maxRounds; ++k) {
        const int64_t capacity = problem_.capacityNum[e] * k / problem_.capacityDen[e];
        if (static_cast<int64_t>(carried[e].size()) <= capacity) continue;
        query_.require(t.implies(choice[static_cast<size_t>(s - 1)][static_cast<size_t>(k - 1)],
                                 t.le(count, t.intConst(capacity))));
      }
    }
  }

  firstRound_ = query_.wanted.size();
  for (Term r : rounds_) query_.wanted.push_back(r);
  for (size_t c = 0; c < send_.size(); ++c)
    for (size_t l = 0; l < send_[c].size(); ++l)
      if (send_[c][l]) {
        wantedSends_.emplace_back(static_cast<int32_t>(c), static_cast<int32_t>(l));
        query_.wanted.push_back(*send_[c][l]);
        query_.wanted.push_back(time_[c][static_cast<size_t>(problem_.links[l].to)]);
      }
}

// Left free, a step never needs more rounds than it takes its busiest link to carry every chunk
// over every logical link that uses it.
int32_t Encoding::freeRoundsLimit() const {
  std::vector<int64_t> users(problem_.capacityNum.size(), 0);
  for (const LogicalLink& l : problem_.links)
    for (int32_t e : l.physical) ++users[static_cast<size_t>(e)];
  int64_t most = 1;
  for (size_t e = 0; e < users.size(); ++e) {
    const int64_t load = static_cast<int64_t>(problem_.demands.size()) * users[e];
    most = std::max(most, semantics::ceilDiv(load * problem_.capacityDen[e], problem_.capacityNum[e]));
  }
  return static_cast<int32_t>(most);
}

Schedule Encoding::schedule(const std::vector<int64_t>& model) const {
  Schedule out;
  out.steps = steps_;
  for (int32_t s = 0; s < steps_; ++s)
    out.roundsPerStep.push_back(static_cast<int32_t>(model[firstRound_ + static_cast<size_t>(s)]));
  // One sender per (chunk, receiver): the lowest rank among those the model chose.
  std::map<std::pair<int32_t, int32_t>, Send> chosen;
  size_t at = firstRound_ + static_cast<size_t>(steps_);
  for (const auto& [c, l] : wantedSends_) {
    const int64_t sent = model[at], step = model[at + 1];
    at += 2;
    if (sent == 0) continue;
    const LogicalLink& link = problem_.links[static_cast<size_t>(l)];
    Send send{static_cast<int32_t>(step), c, link.from, link.to};
    auto [it, fresh] = chosen.try_emplace({c, link.to}, send);
    if (!fresh && send.from < it->second.from) it->second = send;
  }
  // Drop sends to ranks that neither want the chunk nor pass it on, until none is left.
  for (bool changed = true; changed;) {
    changed = false;
    std::set<std::pair<int32_t, int32_t>> forwards;
    for (const auto& [key, send] : chosen) forwards.insert({send.chunk, send.from});
    for (auto it = chosen.begin(); it != chosen.end();) {
      const Send& send = it->second;
      if (!problem_.demands[static_cast<size_t>(send.chunk)].wanted[static_cast<size_t>(send.to)] &&
          !forwards.count({send.chunk, send.to})) {
        it = chosen.erase(it);
        changed = true;
      } else {
        ++it;
      }
    }
  }
  for (const auto& [key, send] : chosen) out.sends.push_back(send);
  std::sort(out.sends.begin(), out.sends.end());
  return out;
}

}  // namespace ccforge::synth::sccl
