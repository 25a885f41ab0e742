#include "semantics/step_kinds.hpp"
#include "verify/smt/data_encoding.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <set>
#include <stdexcept>

namespace ccforge::verify::smt {
namespace {

constexpr size_t kMaxValuesPerChunk = 64;
constexpr uint8_t kBegin = 0, kRead = 1, kWrite = 2, kEnd = 3;

}  // namespace

DataEncoding::DataEncoding(const DataSetting& setting, const SyncGraph& graph,
                           const std::vector<std::optional<semantics::ChunkValues::Id>>& targets, std::string name,
                           std::string kind)
    : setting_(setting), graph_(graph), kind_(std::move(kind)) {
  query_.name = std::move(name);
  const semantics::LoadedProgram& index = setting.index();
  uint32_t slots = 0;
  firstSlot_.resize(index.stepCount() + 1);
  for (uint32_t s = 0; s < index.stepCount(); ++s) {
    firstSlot_[s] = slots;
    if (graph.runs(s)) slots += static_cast<uint32_t>(chunks(s));
  }
  firstSlot_[index.stepCount()] = slots;
  sourceRead_.assign(slots, -1);
  destinationRead_.assign(slots, -1);
  writersOf_.assign(setting.cellCount(), {});
  for (uint32_t s : graph.order())
    for (int32_t j = 0; j < chunks(s); ++j)
      if (int32_t c = setting.destinationCell(s, j); c != kOutside)
        writersOf_[static_cast<size_t>(c)].push_back({s, j});
  collectReads();
  if (!computeDomains()) return;
  encodePoints();
  encodeValues();
  encodeGoal(targets);
}

int32_t DataEncoding::chunks(uint32_t s) const {
  const semantics::LoadedStep& st = setting_.index().step(s);
  return st.type == ir::OpType::Nop ? 0 : std::max(st.cnt, 0);
}

std::string DataEncoding::stepName(uint32_t s) const {
  const semantics::LoadedProgram& index = setting_.index();
  const int32_t tb = index.tbOfStep(s);
  return fmt::format("r{}_b{}_s{}", index.rankOf(tb), index.idOf(tb), index.indexInTb(s));
}

void DataEncoding::collectReads() {
  auto add = [&](uint32_t s, int32_t j, int32_t cell) {
    Read r{s, j, cell, false, {}};
    if (cell != kOutside) {
      const auto& writers = writersOf_[static_cast<size_t>(cell)];
      r.initialPossible = std::none_of(writers.begin(), writers.end(),
                                       [&](const WriteRef& x) { return graph_.strictlyBefore(x.step, s); });
      for (const WriteRef& w : writers) {
        if (w.step == s || graph_.strictlyBefore(s, w.step)) continue;  // after the read
        bool overwritten = std::any_of(writers.begin(), writers.end(), [&](const WriteRef& x) {
          return x.step != w.step && graph_.strictlyBefore(w.step, x.step) && graph_.strictlyBefore(x.step, s);
        });
        if (!overwritten) r.candidates.push_back(w);
      }
    }
    reads_.push_back(std::move(r));
    return static_cast<int32_t>(reads_.size() - 1);
  };
  for (uint32_t s : graph_.order()) {
    const ir::OpType type = setting_.index().step(s).type;
    for (int32_t j = 0; j < chunks(s); ++j) {
      const uint32_t slot = firstSlot_[s] + static_cast<uint32_t>(j);
      if (semantics::readsLocalSource(type)) sourceRead_[slot] = add(s, j, setting_.sourceCell(s, j));
      if (semantics::readsLocalDestination(type)) destinationRead_[slot] = add(s, j, setting_.destinationCell(s, j));
    }
  }
}

std::vector<DataEncoding::WriteRef> DataEncoding::lastWriteCandidates(int32_t cell) const {
  std::vector<WriteRef> out;
  const auto& writers = writersOf_[static_cast<size_t>(cell)];
  for (const WriteRef& w : writers)
    if (std::none_of(writers.begin(), writers.end(),
                     [&](const WriteRef& x) { return x.step != w.step && graph_.strictlyBefore(w.step, x.step); }))
      out.push_back(w);
  return out;
}

DataEncoding::Domain DataEncoding::readDomain(const Read& r) const {
  if (r.cell == kOutside) return {semantics::ChunkValues::kUninitialized};
  std::set<semantics::ChunkValues::Id> d;
  if (r.initialPossible) d.insert(setting_.initial(r.cell));
  for (const WriteRef& w : r.candidates) {
    const Domain& o = out_[firstSlot_[w.step] + static_cast<uint32_t>(w.chunk)];
    d.insert(o.begin(), o.end());
  }
  return {d.begin(), d.end()};
}

DataEncoding::Domain DataEncoding::incomingDomain(uint32_t s, int32_t j) const {
  const uint32_t sender = graph_.senderOf(s);
  if (sender == semantics::kNoStep || !graph_.runs(sender) || j >= chunks(sender))
    return {semantics::ChunkValues::kUninitialized};
  return out_[firstSlot_[sender] + static_cast<uint32_t>(j)];
}

const DataEncoding::Domain& DataEncoding::domainOf(const Read& r) const {
  return readDomains_[static_cast<size_t>(&r - reads_.data())];
}

// The values every chunk can take in some interleaving, as a fixpoint over the steps.
bool DataEncoding::computeDomains() {
  out_.assign(firstSlot_.back(), {});
  readDomains_.assign(reads_.size(), {});
  const Domain none{semantics::ChunkValues::kUninitialized};
  for (bool changed = true; changed;) {
    changed = false;
    for (uint32_t s : graph_.order()) {
      for (int32_t j = 0; j < chunks(s); ++j) {
        const uint32_t slot = firstSlot_[s] + static_cast<uint32_t>(j);
        for (int32_t ri : {sourceRead_[slot], destinationRead_[slot]}) {
          if (ri < 0) continue;
          Domain d = readDomain(reads_[static_cast<size_t>(ri)]);
          if (d != readDomains_[static_cast<size_t>(ri)]) {
            readDomains_[static_cast<size_t>(ri)] = std::move(d);
            changed = true;
          }
        }
        const Domain in = semantics::receives(setting_.index().step(s).type) ? incomingDomain(s, j) : none;
        const Domain& src = sourceRead_[slot] >= 0 ? readDomains_[static_cast<size_t>(sourceRead_[slot])] : none;
        const Domain& dst =
            destinationRead_[slot] >= 0 ? readDomains_[static_cast<size_t>(destinationRead_[slot])] : none;
        std::set<semantics::ChunkValues::Id> result;
        for (auto a : in)
          for (auto b : src)
            for (auto c : dst) result.insert(setting_.result(s, a, b, c));
        if (result.size() > kMaxValuesPerChunk) {
          whyNot_ = fmt::format("a chunk of {} can hold more than {} different values across interleavings",
                                stepName(s), kMaxValuesPerChunk);
          return false;
        }
        Domain d(result.begin(), result.end());
        if (d != out_[slot]) {
          out_[slot] = std::move(d);
          changed = true;
        }
      }
    }
  }
  for (const Domain& d : out_)
    if (d.empty()) throw std::logic_error("data encoding: a chunk has no possible value");
  return true;
}

void DataEncoding::encodePoints() {
  ccforge::smt::TermStore& T = query_.terms;
  points_.resize(setting_.index().stepCount());
  auto point = [&](uint32_t s, int32_t j, uint8_t kind, const std::string& name) {
    ccforge::smt::Term t = T.intVar(name);
    query_.wanted.push_back(t);
    pointRefs_.push_back({s, j, kind});
    return t;
  };
  for (uint32_t s : graph_.order()) {
    StepPoints& p = points_[s];
    const std::string name = stepName(s);
    p.begin = point(s, -1, kBegin, "begin_" + name);
    p.end = point(s, -1, kEnd, "end_" + name);
    query_.require(T.lt(p.begin, p.end));
    for (int32_t j = 0; j < chunks(s); ++j) {
      p.read.push_back(point(s, j, kRead, fmt::format("read_{}_c{}", name, j)));
      query_.require(T.andTerm({T.lt(p.begin, p.read.back()), T.lt(p.read.back(), p.end)}));
      if (setting_.destinationCell(s, j) == kOutside) {
        p.write.push_back(ccforge::smt::Term{});
        continue;
      }
      p.write.push_back(point(s, j, kWrite, fmt::format("write_{}_c{}", name, j)));
      query_.require(T.andTerm({T.lt(p.read.back(), p.write.back()), T.lt(p.write.back(), p.end)}));
    }
    // A step reads all its operands before it writes (overlapping src and dst behave like one copy).
    for (int32_t j1 = 0; j1 < chunks(s); ++j1)
      for (int32_t cell :
           {setting_.sourceCell(s, j1),
            setting_.index().step(s).type == ir::OpType::Reduce ? setting_.destinationCell(s, j1) : kOutside})
        for (int32_t j0 = 0; cell != kOutside && j0 < chunks(s); ++j0)
          if (j0 != j1 && setting_.destinationCell(s, j0) == cell) query_.require(T.lt(p.read[j1], p.write[j0]));
  }
  for (const SyncEdge& e : graph_.edges()) {
    const StepPoints &a = points_[e.from], &b = points_[e.to];
    if (e.strict) {
      query_.require(T.lt(a.end, b.begin));
      continue;
    }
    query_.require(T.andTerm({T.lt(a.begin, b.begin), T.lt(a.end, b.end)}));
    for (int32_t j = 0; j < std::min(chunks(e.from), chunks(e.to)); ++j) query_.require(T.lt(a.read[j], b.read[j]));
  }
}

ccforge::smt::Term DataEncoding::incomingTerm(uint32_t s, int32_t j) {
  const uint32_t sender = graph_.senderOf(s);
  if (sender == semantics::kNoStep || !graph_.runs(sender) || j >= chunks(sender))
    return query_.terms.intConst(semantics::ChunkValues::kUninitialized);
  return value_[firstSlot_[sender] + static_cast<uint32_t>(j)];
}

// Which write a read (reader set) or a cell's final value (no reader) comes from: one Boolean
// per option, constrained by the points; returns the value as an ite over the options.
ccforge::smt::Term DataEncoding::choice(const std::string& name, const std::vector<WriteRef>& writes,
                                        bool initialPossible, int32_t cell, const Read* reader) {
  ccforge::smt::TermStore& T = query_.terms;
  const auto& writers = writersOf_[static_cast<size_t>(cell)];
  auto writePoint = [&](const WriteRef& w) { return points_[w.step].write[static_cast<size_t>(w.chunk)]; };
  const std::optional<ccforge::smt::Term> readPoint =
      reader ? std::optional<ccforge::smt::Term>(points_[reader->step].read[static_cast<size_t>(reader->chunk)])
             : std::nullopt;
  // Writes that happens-before does not already put after the read (its own writes come after it).
  auto mayPrecedeRead = [&](const WriteRef& x) {
    return !reader || !(x.step == reader->step || graph_.strictlyBefore(reader->step, x.step));
  };
  std::vector<ccforge::smt::Term> options, values;
  for (const WriteRef& w : writes) {
    std::vector<ccforge::smt::Term> conditions;
    if (readPoint) conditions.push_back(T.lt(writePoint(w), *readPoint));
    for (const WriteRef& x : writers) {
      if (x.step == w.step || !mayPrecedeRead(x) || graph_.strictlyBefore(x.step, w.step)) continue;
      conditions.push_back(readPoint ? T.orTerm({T.lt(writePoint(x), writePoint(w)), T.lt(*readPoint, writePoint(x))})
                                     : T.lt(writePoint(x), writePoint(w)));
    }
    const ccforge::smt::Term sel = T.boolVar(fmt::format("{}_from_{}_c{}", name, stepName(w.step), w.chunk));
    query_.require(T.implies(sel, T.andTerm(conditions)));
    options.push_back(sel);
    values.push_back(value_[firstSlot_[w.step] + static_cast<uint32_t>(w.chunk)]);
  }
  if (initialPossible) {
    std::vector<ccforge::smt::Term> conditions;
    for (const WriteRef& x : writers)
      if (mayPrecedeRead(x)) conditions.push_back(T.lt(*readPoint, writePoint(x)));
    const ccforge::smt::Term sel = T.boolVar(name + "_from_initial");
    query_.require(T.implies(sel, T.andTerm(conditions)));
    options.push_back(sel);
    values.push_back(T.intConst(setting_.initial(cell)));
  }
  query_.require(T.orTerm(options));
  ccforge::smt::Term chain = values.back();
  for (size_t i = values.size() - 1; i-- > 0;) chain = T.ite(options[i], values[i], chain);
  return chain;
}

ccforge::smt::Term DataEncoding::readTerm(const Read& r, const std::string& name) {
  ccforge::smt::TermStore& T = query_.terms;
  const Domain& d = domainOf(r);
  if (d.size() == 1) return T.intConst(d.front());
  if (r.candidates.size() + (r.initialPossible ? 1 : 0) == 1)
    return value_[firstSlot_[r.candidates.front().step] + static_cast<uint32_t>(r.candidates.front().chunk)];
  const ccforge::smt::Term v = T.intVar(name);
  query_.require(T.eq(v, choice(name, r.candidates, r.initialPossible, r.cell, &r)));
  return v;
}

ccforge::smt::Term DataEncoding::valueTable(uint32_t s, ccforge::smt::Term a, const Domain& da, ccforge::smt::Term b,
                                            const Domain& db, bool incomingFirst) {
  ccforge::smt::TermStore& T = query_.terms;
  auto entry = [&](semantics::ChunkValues::Id x, semantics::ChunkValues::Id y) {
    return T.intConst(incomingFirst ? setting_.result(s, x, y, semantics::ChunkValues::kUninitialized)
                                    : setting_.result(s, semantics::ChunkValues::kUninitialized, y, x));
  };
  auto row = [&](semantics::ChunkValues::Id x) {
    ccforge::smt::Term t = entry(x, db.back());
    for (size_t k = db.size() - 1; k-- > 0;) t = T.ite(T.eq(b, T.intConst(db[k])), entry(x, db[k]), t);
    return t;
  };
  ccforge::smt::Term t = row(da.back());
  for (size_t i = da.size() - 1; i-- > 0;) t = T.ite(T.eq(a, T.intConst(da[i])), row(da[i]), t);
  return t;
}

void DataEncoding::encodeValues() {
  ccforge::smt::TermStore& T = query_.terms;
  value_.assign(firstSlot_.back(), ccforge::smt::Term{});
  for (uint32_t s : graph_.order())
    for (int32_t j = 0; j < chunks(s); ++j) {
      const uint32_t slot = firstSlot_[s] + static_cast<uint32_t>(j);
      value_[slot] = out_[slot].size() == 1 ? T.intConst(out_[slot].front())
                                            : T.intVar(fmt::format("value_{}_c{}", stepName(s), j));
    }
  const Domain none{semantics::ChunkValues::kUninitialized};
  for (uint32_t s : graph_.order()) {
    const ir::OpType type = setting_.index().step(s).type;
    for (int32_t j = 0; j < chunks(s); ++j) {
      const uint32_t slot = firstSlot_[s] + static_cast<uint32_t>(j);
      if (out_[slot].size() == 1) continue;  // determined: no choice to encode
      const int32_t src = sourceRead_[slot], dst = destinationRead_[slot];
      const ccforge::smt::Term source =
          src >= 0 ? readTerm(reads_[static_cast<size_t>(src)], fmt::format("src_{}_c{}", stepName(s), j))
                   : T.intConst(semantics::ChunkValues::kUninitialized);
      const ccforge::smt::Term destination =
          dst >= 0 ? readTerm(reads_[static_cast<size_t>(dst)], fmt::format("dst_{}_c{}", stepName(s), j))
                   : T.intConst(semantics::ChunkValues::kUninitialized);
      const ccforge::smt::Term incoming =
          semantics::receives(type) ? incomingTerm(s, j) : T.intConst(semantics::ChunkValues::kUninitialized);
      ccforge::smt::Term expr;
      switch (semantics::stepValue(type)) {
        case semantics::StepValue::Source: expr = source; break;
        case semantics::StepValue::Incoming: expr = incoming; break;
        case semantics::StepValue::IncomingPlusSource:
          expr = valueTable(s, incoming, incomingDomain(s, j), source,
                            src >= 0 ? readDomains_[static_cast<size_t>(src)] : none, true);
          break;
        case semantics::StepValue::DestinationPlusSource:
          expr = valueTable(s, destination, readDomains_[static_cast<size_t>(dst)], source,
                            readDomains_[static_cast<size_t>(src)], false);
          break;
        case semantics::StepValue::Computed:  // not modelled: the verifier decides fused programs by simulation
        case semantics::StepValue::None: continue;
      }
      query_.require(T.eq(value_[slot], expr));
    }
  }
}

void DataEncoding::encodeGoal(const std::vector<std::optional<semantics::ChunkValues::Id>>& targets) {
  ccforge::smt::TermStore& T = query_.terms;
  std::vector<ccforge::smt::Term> differs;
  const auto& outputs = setting_.outputs();
  for (size_t k = 0; k < outputs.size(); ++k) {
    if (!targets[k] || outputs[k].cell == kOutside) continue;
    const int32_t cell = outputs[k].cell;
    std::vector<WriteRef> last = lastWriteCandidates(cell);
    std::set<semantics::ChunkValues::Id> domain;
    for (const WriteRef& w : last) {
      const Domain& d = out_[firstSlot_[w.step] + static_cast<uint32_t>(w.chunk)];
      domain.insert(d.begin(), d.end());
    }
    ccforge::smt::Term final;
    if (last.empty())
      final = T.intConst(setting_.initial(cell));
    else if (domain.size() == 1)
      final = T.intConst(*domain.begin());
    else if (last.size() == 1)
      final = value_[firstSlot_[last.front().step] + static_cast<uint32_t>(last.front().chunk)];
    else
      final = choice(fmt::format("final_r{}_o{}", outputs[k].rank, outputs[k].index), last, false, cell, nullptr);
    const ccforge::smt::Term d = T.notTerm(T.eq(final, T.intConst(*targets[k])));
    if (T.isFalse(d)) continue;
    differs.push_back(d);
    query_.wanted.push_back(final);
    checkedOutputs_.push_back(k);
    checkedTargets_.push_back(*targets[k]);
  }
  query_.require(T.orTerm(differs));
}

DataWitness DataEncoding::witness(const std::vector<int64_t>& model) const {
  const semantics::LoadedProgram& index = setting_.index();
  DataWitness out;
  verify::Witness& w = out.witness;
  w.kind = kind_;
  w.query = query_.name;
  std::vector<size_t> order(pointRefs_.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  // Every constraint between points is strict, so points with equal values are unordered.
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return model[a] < model[b]; });
  static constexpr const char* kActions[] = {"begin", "read", "write", "end"};
  for (size_t i : order) {
    const PointRef& p = pointRefs_[i];
    const int32_t tb = index.tbOfStep(p.step);
    w.schedule.push_back(verify::ScheduleEvent{index.rankOf(tb), index.idOf(tb), index.indexInTb(p.step), 0, -1,
                                               kActions[p.kind], p.chunk});
  }
  const size_t base = pointRefs_.size();
  for (size_t i = 0; i < checkedOutputs_.size(); ++i) {
    const auto value = static_cast<semantics::ChunkValues::Id>(model[base + i]);
    if (value != checkedTargets_[i]) out.differing.emplace_back(checkedOutputs_[i], value);
  }
  return out;
}

}  // namespace ccforge::verify::smt
