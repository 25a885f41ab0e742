// The MSCCLang DSL in C++: a program is bound to a collective and routes chunks between the
// input, output and scratch buffers of its ranks with copy and reduce.
//
//   dsl::Program p("ring", {.type = CollectiveType::AllReduce, .ranks = 4, .chunkFactor = 4,
//                           .form = CallForm::InPlace});
//   auto c = p.chunk(0, Buffer::Input, 0);
//   c = c.copy(1, Buffer::Input, 0, {.ch = 0});            // returns the reference at the destination
//   p.chunk(2, Buffer::Input, 0).reduce(c);               // rank 2 receives and reduces
//
// Only the latest reference to a location may be used: a reference becomes stale when its
// location is written (reduce writes its own destination). Misuse throws DslError naming the
// call and the caller's file:line.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include "dsl/source_pos.hpp"
#include <string>
#include <vector>

#include "semantics/chunk_value.hpp"
#include "dsl/chunk_ref.hpp"
#include "dsl/collective_binding.hpp"
#include "dsl/trace.hpp"

namespace ccforge::dsl {

struct ProgramOptions {
  ir::Protocol protocol = ir::Protocol::Simple;
  int32_t instances = 1;  // whole-program replication, each replica on its own channels
};

class ProgramState;

class Program {
 public:
  // Throws std::invalid_argument when the binding or the options make no sense.
  Program(std::string name, CollectiveBinding binding, ProgramOptions options = {});
  Program(Program&&) noexcept;
  Program& operator=(Program&&) noexcept;
  ~Program();

  // A reference to `count` consecutive chunks; every one must hold data.
  ChunkRef chunk(int32_t rank, ir::Buffer buffer, int32_t index, int32_t count = 1,
                 SourcePos where = SourcePos::current());

  // Fused programs (binding.product): computes input chunks index..index+count-1 of the rank
  // from its operands, each once, and returns the reference to them. Until then they hold no
  // data. directives.sendtb names the thread block.
  ChunkRef compute(int32_t rank, int32_t index, int32_t count = 1, Directives directives = {},
                   SourcePos where = SourcePos::current());

  // Runs `fragment`; every operation it traces is split into n parts, each on its own channel.
  void parallelize(int32_t n, const std::function<void()>& fragment, SourcePos where = SourcePos::current());

  const std::string& name() const;
  const CollectiveBinding& binding() const;
  const ProgramOptions& options() const;
  const std::vector<TraceOp>& trace() const;
  int32_t ranks() const { return binding().ranks; }
  // Scratch chunks of a rank: one past the highest index the program used.
  int32_t scratchChunks(int32_t rank) const;
  // Whether the two ranges share memory: the same rank, and the same chunks or chunks an
  // in-place call aliases (an allgather's input is part of its output). Out-of-range is false.
  bool sharesMemory(ChunkLocation a, int32_t countA, ChunkLocation b, int32_t countB) const;
  // Least common multiple of the parallelize factors of all traced operations (1 if none).
  int32_t parallelFactors() const;
  // How many parts the compiler cuts each chunk into: instances * parallelFactors().
  int32_t refinement() const { return options().instances * parallelFactors(); }

  // Values the trace leaves in the buffers, for the postcondition check and for explanations.
  const semantics::ChunkValues& values() const;
  semantics::ChunkValues::Id valueAt(int32_t rank, ir::Buffer buffer, int32_t index) const;
  // Index of the trace operation that last wrote the location; -1 if it holds its initial value.
  int64_t lastWriter(int32_t rank, ir::Buffer buffer, int32_t index) const;

  struct PostconditionResult {
    size_t mismatches = 0;             // output chunks that do not hold what the collective requires
    std::vector<std::string> details;  // the first few, explained
    bool holds() const { return mismatches == 0; }
  };
  // A custom collective's postcondition, decided after the trace (the Python front end derives it
  // from the script's check()). Throws std::invalid_argument for a built-in collective.
  void replaceCustomPostcondition(std::vector<semantics::ChunkMapEntry> post);
  // Compares the trace's final output buffers with the collective's postcondition.
  PostconditionResult checkPostcondition(size_t maxDetails = 8) const;

 private:
  std::unique_ptr<ProgramState> state_;
};

}  // namespace ccforge::dsl
