#include "semantics/step_kinds.hpp"
#include "verify/smt/data_replay.hpp"

#include <fmt/format.h>

#include <map>

namespace ccforge::verify::smt {
namespace {

int32_t chunksOf(const semantics::LoadedStep& st) { return st.type == ir::OpType::Nop ? 0 : std::max(st.cnt, 0); }

struct Positions {
  size_t begin = SIZE_MAX, end = SIZE_MAX;
  std::vector<size_t> read, write;
};

class Replay {
 public:
  Replay(const DataSetting& setting, const SyncGraph& graph)
      : setting_(setting), graph_(graph), index_(setting.index()) {}

  DataReplay run(const std::vector<verify::ScheduleEvent>& schedule) {
    DataReplay out;
    if (!(out.error = locate(schedule)).empty() || !(out.error = checkOrders()).empty()) return out;
    std::vector<semantics::ChunkValues::Id> memory(setting_.cellCount());
    std::vector<uint32_t> writer(setting_.cellCount(), semantics::kNoStep);
    for (size_t c = 0; c < memory.size(); ++c) memory[c] = setting_.initial(static_cast<int32_t>(c));
    std::map<std::pair<uint32_t, int32_t>, semantics::ChunkValues::Id> computed;
    auto read = [&](int32_t cell) {
      return cell == kOutside ? semantics::ChunkValues::kUninitialized : memory[static_cast<size_t>(cell)];
    };
    auto see = [&](uint32_t s, int32_t j, bool destination, int32_t cell) {
      if (cell != kOutside) out.reads.push_back({s, j, destination, writer[static_cast<size_t>(cell)]});
      return read(cell);
    };
    for (size_t i = 0; i < schedule.size(); ++i) {
      const uint32_t s = steps_[i];
      const int32_t j = schedule[i].chunk;
      const semantics::LoadedStep& st = index_.step(s);
      if (schedule[i].action == "read") {
        semantics::ChunkValues::Id incoming = semantics::ChunkValues::kUninitialized;
        if (semantics::receives(st.type)) {
          const uint32_t sender = graph_.senderOf(s);
          if (j < chunksOf(index_.step(sender))) incoming = computed.at({sender, j});
        }
        const semantics::ChunkValues::Id source = see(s, j, false, setting_.sourceCell(s, j));
        const semantics::ChunkValues::Id destination = st.type == ir::OpType::Reduce
                                                           ? see(s, j, true, setting_.destinationCell(s, j))
                                                           : semantics::ChunkValues::kUninitialized;
        computed[{s, j}] = setting_.result(s, incoming, source, destination);
      } else if (schedule[i].action == "write") {
        const int32_t cell = setting_.destinationCell(s, j);
        memory[static_cast<size_t>(cell)] = computed.at({s, j});
        writer[static_cast<size_t>(cell)] = s;
      }
    }
    for (const OutputChunk& o : setting_.outputs()) {
      out.outputs.push_back(read(o.cell));
      out.lastWriter.push_back(o.cell == kOutside ? semantics::kNoStep : writer[static_cast<size_t>(o.cell)]);
    }
    out.ok = true;
    return out;
  }

 private:
  // Which step each event belongs to; every running step's events exactly once.
  std::string locate(const std::vector<verify::ScheduleEvent>& schedule) {
    for (uint32_t s : graph_.order()) {
      Positions& p = positions_[s];
      p.read.assign(static_cast<size_t>(chunksOf(index_.step(s))), SIZE_MAX);
      p.write.assign(p.read.size(), SIZE_MAX);
    }
    for (size_t i = 0; i < schedule.size(); ++i) {
      const verify::ScheduleEvent& e = schedule[i];
      if (e.rank < 0 || e.rank >= index_.ranks() || e.tb < 0 || e.tb >= index_.threadBlocksOfRank(e.rank) ||
          e.step < 0 || e.step >= index_.stepsOf(index_.globalTb(e.rank, e.tb)))
        return fmt::format("event {}: no such step", i);
      const uint32_t s = index_.firstStep(index_.globalTb(e.rank, e.tb)) + static_cast<uint32_t>(e.step);
      steps_.push_back(s);
      auto it = positions_.find(s);
      if (it == positions_.end())
        return fmt::format("event {}: rank {} tb {} step {} never runs", i, e.rank, e.tb, e.step);
      Positions& p = it->second;
      size_t* slot = nullptr;
      if (e.action == "begin")
        slot = &p.begin;
      else if (e.action == "end")
        slot = &p.end;
      else if ((e.action == "read" || e.action == "write") && e.chunk >= 0 &&
               e.chunk < static_cast<int32_t>(p.read.size()))
        slot = e.action == "read" ? &p.read[static_cast<size_t>(e.chunk)] : &p.write[static_cast<size_t>(e.chunk)];
      if (!slot)
        return fmt::format("event {}: rank {} tb {} step {} has no '{}' of chunk {}", i, e.rank, e.tb, e.step, e.action,
                           e.chunk);
      if (e.action == "write" && setting_.destinationCell(s, e.chunk) == kOutside)
        return fmt::format("event {}: the step's destination chunk {} lies outside its buffer", i, e.chunk);
      if (*slot != SIZE_MAX)
        return fmt::format("event {}: repeats an event of rank {} tb {} step {}", i, e.rank, e.tb, e.step);
      *slot = i;
    }
    for (const auto& [s, p] : positions_) {
      bool complete = p.begin != SIZE_MAX && p.end != SIZE_MAX;
      for (size_t j = 0; j < p.read.size(); ++j)
        complete = complete && p.read[j] != SIZE_MAX &&
                   (p.write[j] != SIZE_MAX || setting_.destinationCell(s, static_cast<int32_t>(j)) == kOutside);
      if (!complete) {
        const verify::StepRef r = verify::stepRef(index_, s);
        return fmt::format("rank {} tb {} step {} runs but the schedule lacks some of its events", r.rank, r.tb,
                           r.step);
      }
    }
    return {};
  }

  std::string checkOrders() const {
    auto describe = [&](uint32_t s) {
      const verify::StepRef r = verify::stepRef(index_, s);
      return fmt::format("rank {} tb {} step {}", r.rank, r.tb, r.step);
    };
    for (const auto& [s, p] : positions_) {
      for (size_t j = 0; j < p.read.size(); ++j) {
        const bool w = p.write[j] != SIZE_MAX;
        if (!(p.begin < p.read[j] && p.read[j] < p.end && (!w || (p.read[j] < p.write[j] && p.write[j] < p.end))))
          return describe(s) + ": its events are out of order";
        for (int32_t cell :
             {setting_.sourceCell(s, static_cast<int32_t>(j)),
              index_.step(s).type == ir::OpType::Reduce ? setting_.destinationCell(s, static_cast<int32_t>(j))
                                                        : kOutside})
          for (size_t k = 0; cell != kOutside && k < p.read.size(); ++k)
            if (k != j && setting_.destinationCell(s, static_cast<int32_t>(k)) == cell && p.write[k] < p.read[j])
              return describe(s) + ": writes a chunk it has not yet read";
      }
    }
    for (const SyncEdge& e : graph_.edges()) {
      const Positions &a = positions_.at(e.from), &b = positions_.at(e.to);
      if (e.strict ? a.end > b.begin : (a.begin > b.begin || a.end > b.end))
        return fmt::format("{} must {} {}", describe(e.from), e.strict ? "end before" : "begin and end before",
                           describe(e.to));
      if (!e.strict)
        for (size_t j = 0; j < std::min(a.read.size(), b.read.size()); ++j)
          if (a.read[j] > b.read[j])
            return fmt::format("{} receives chunk {} before {} sent it", describe(e.to), j, describe(e.from));
    }
    return {};
  }

  const DataSetting& setting_;
  const SyncGraph& graph_;
  const semantics::LoadedProgram& index_;
  std::map<uint32_t, Positions> positions_;
  std::vector<uint32_t> steps_;
};

}  // namespace

DataReplay replayDataSchedule(const DataSetting& setting, const SyncGraph& graph,
                              const std::vector<verify::ScheduleEvent>& schedule) {
  return Replay(setting, graph).run(schedule);
}

std::vector<verify::ScheduleEvent> atomicSchedule(const DataSetting& setting, const SyncGraph& graph) {
  const semantics::LoadedProgram& index = setting.index();
  std::vector<verify::ScheduleEvent> out;
  for (uint32_t s : graph.order()) {
    const int32_t tb = index.tbOfStep(s), rank = index.rankOf(tb), id = index.idOf(tb), step = index.indexInTb(s);
    const int32_t n = chunksOf(index.step(s));
    out.push_back({rank, id, step, 0, -1, "begin", -1});
    for (int32_t j = 0; j < n; ++j) out.push_back({rank, id, step, 0, -1, "read", j});
    for (int32_t j = 0; j < n; ++j)
      if (setting.destinationCell(s, j) != kOutside) out.push_back({rank, id, step, 0, -1, "write", j});
    out.push_back({rank, id, step, 0, -1, "end", -1});
  }
  return out;
}

}  // namespace ccforge::verify::smt
