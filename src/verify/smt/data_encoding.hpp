// Encoding 2: is there an execution of one tile iteration, consistent with the program's
// synchronisation, in which some output chunk holds a value other than the target (the
// postcondition, or for the race check the value it holds in one fixed interleaving)?
//
// Each running step is an interval [begin, end] (integer difference logic); strict
// happens-before edges put one interval before the other, a send and its receive overlap
// (begin before begin, end before end), and for every chunk j the step reads (its local
// operands, the data it received) at one point and writes its destination at a later point
// inside the interval; the receive of chunk j comes after its send read chunk j. A read sees
// the write of the same cell with the latest point before it (or the cell's initial value);
// which one is a choice (Booleans) constrained by the points. Values are finite: each chunk's
// possible values (interned multisets of input chunks) are computed up front, and a reduction
// of two undetermined operands is a table over their possible values.
//
// Writes that happens-before puts after a read can never be seen by it, nor can writes it puts
// before another write that is before the read; without such candidates a race-free program
// has one value per chunk and the query is decided without search. Races that leave the
// result unchanged (both orders give the same value) are not reported: what is asked is
// whether a result differs.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "verify/report.hpp"
#include "verify/smt/data_semantics.hpp"
#include "smt/query.hpp"
#include "verify/smt/sync_graph.hpp"

namespace ccforge::verify::smt {

struct DataWitness {
  verify::Witness witness;
  // The output chunks (index into DataSetting::outputs) that differ in the model, with their value.
  std::vector<std::pair<size_t, semantics::ChunkValues::Id>> differing;
};

class DataEncoding {
 public:
  // targets: per output chunk (DataSetting::outputs order), the value it must hold; nullopt: any.
  DataEncoding(const DataSetting& setting, const SyncGraph& graph,
               const std::vector<std::optional<semantics::ChunkValues::Id>>& targets, std::string name,
               std::string kind);

  // False when the chunks could hold too many different values to encode; whyNot() says.
  bool built() const { return whyNot_.empty(); }
  const std::string& whyNot() const { return whyNot_; }
  const ccforge::smt::Query& query() const { return query_; }
  DataWitness witness(const std::vector<int64_t>& model) const;

 private:
  struct WriteRef {
    uint32_t step = 0;
    int32_t chunk = 0;
  };
  struct Read {
    uint32_t step = 0;
    int32_t chunk = 0;
    int32_t cell = kOutside;
    bool initialPossible = false;
    std::vector<WriteRef> candidates;
  };
  struct StepPoints {
    ccforge::smt::Term begin, end;
    std::vector<ccforge::smt::Term> read, write;  // per chunk; write only where the destination exists
  };
  using Domain = std::vector<semantics::ChunkValues::Id>;  // sorted

  void collectReads();
  std::vector<WriteRef> lastWriteCandidates(int32_t cell) const;
  bool computeDomains();
  const Domain& domainOf(const Read& r) const;
  Domain readDomain(const Read& r) const;
  Domain incomingDomain(uint32_t s, int32_t j) const;
  void encodePoints();
  void encodeValues();
  ccforge::smt::Term readTerm(const Read& r, const std::string& name);
  ccforge::smt::Term incomingTerm(uint32_t s, int32_t j);
  ccforge::smt::Term valueTable(uint32_t s, ccforge::smt::Term a, const Domain& da, ccforge::smt::Term b,
                                const Domain& db, bool incomingFirst);
  ccforge::smt::Term choice(const std::string& name, const std::vector<WriteRef>& writes, bool initialPossible,
                            int32_t cell, const Read* reader);
  void encodeGoal(const std::vector<std::optional<semantics::ChunkValues::Id>>& targets);
  std::string stepName(uint32_t s) const;
  int32_t chunks(uint32_t s) const;

  const DataSetting& setting_;
  const SyncGraph& graph_;
  std::string kind_;
  ccforge::smt::Query query_;
  std::string whyNot_;
  std::vector<std::vector<WriteRef>> writersOf_;  // per cell
  std::vector<Read> reads_;
  std::vector<int32_t> sourceRead_, destinationRead_;  // per (step, chunk) slot: index into reads_, or -1
  std::vector<uint32_t> firstSlot_;                    // per step: its first (step, chunk) slot
  std::vector<Domain> out_;                            // per slot: the values the step computes
  std::vector<Domain> readDomains_;                    // per read
  std::vector<StepPoints> points_;                     // per step
  std::vector<ccforge::smt::Term> value_;              // per slot
  // Witness decoding: the point variables in query().wanted order, then the checked outputs.
  struct PointRef {
    uint32_t step;
    int32_t chunk;
    uint8_t kind;  // 0 begin, 1 read, 2 write, 3 end
  };
  std::vector<PointRef> pointRefs_;
  std::vector<size_t> checkedOutputs_;
  std::vector<semantics::ChunkValues::Id> checkedTargets_;
};

}  // namespace ccforge::verify::smt
