#include "dsl/program_state.hpp"

#include <algorithm>
#include <numeric>
#include <stdexcept>

#include "dsl/dsl_error.hpp"
#include "base/limits.hpp"
#include "ir/names.hpp"

namespace ccforge::dsl {
namespace {

// Scratch beyond this many chunks per rank is a programming error, not a buffer size.
constexpr int64_t kMaxScratchChunks = int64_t{1} << 24;
constexpr int32_t kMaxParallel = semantics::kMaxChannels;

std::string callText(const std::string& op, const std::string& args) { return op + "(" + args + ")"; }

}  // namespace

std::string describeChunks(ChunkLocation at, int32_t count) {
  std::string s =
      "rank " + std::to_string(at.rank) + " " + std::string(ir::bufferName(at.buffer)) + "[" + std::to_string(at.index);
  if (count != 1) s += ".." + std::to_string(at.index + count - 1);
  return s + "]";
}

std::string describeRef(const ChunkRef& ref) {
  return describeChunks(ChunkLocation{ref.rank(), ref.buffer(), ref.index()}, ref.count());
}

ProgramState::ProgramState(std::string programName, CollectiveBinding b, ProgramOptions o)
    : name(std::move(programName)), binding(std::move(b)), options(o) {
  binding.validate();
  if (options.instances < 1 || options.instances > semantics::kMaxChannels)
    throw std::invalid_argument("instances must be between 1 and " + std::to_string(semantics::kMaxChannels) +
                                ", got " + std::to_string(options.instances));
  const semantics::Collective coll = binding.collective();
  ranks_.resize(static_cast<size_t>(binding.ranks));
  for (int32_t r = 0; r < binding.ranks; ++r) {
    RankBuffers& rb = ranks_[static_cast<size_t>(r)];
    rb.layout = coll.layout(r, binding.form, 0);
    for (int32_t size : rb.layout.regionSizes) rb.regions.emplace_back(static_cast<size_t>(size));
    const semantics::BufferView& in = rb.layout.view(ir::Buffer::Input);
    if (binding.product) continue;  // a fused program's input holds nothing until compute()
    for (int32_t i = 0; i < in.length; ++i)
      rb.regions[static_cast<size_t>(in.region)][static_cast<size_t>(in.base + i)].value =
          coll.initialInput(values, r, i);
  }
}

const ProgramState::Slot* ProgramState::find(ChunkLocation at) const {
  if (at.rank < 0 || at.rank >= binding.ranks || at.index < 0) return nullptr;
  const RankBuffers& rb = ranks_[static_cast<size_t>(at.rank)];
  const semantics::BufferView& v = rb.layout.view(at.buffer);
  const auto& region = rb.regions[static_cast<size_t>(v.region)];
  const int64_t offset = int64_t{v.base} + at.index;
  if (at.buffer != ir::Buffer::Scratch && at.index >= v.length) return nullptr;
  if (offset >= static_cast<int64_t>(region.size())) return nullptr;
  return &region[static_cast<size_t>(offset)];
}

ProgramState::Slot& ProgramState::slot(ChunkLocation at) {
  RankBuffers& rb = ranks_[static_cast<size_t>(at.rank)];
  const semantics::BufferView& v = rb.layout.view(at.buffer);
  auto& region = rb.regions[static_cast<size_t>(v.region)];
  const size_t offset = static_cast<size_t>(v.base + at.index);
  if (offset >= region.size()) region.resize(offset + 1);  // scratch grows with use
  return region[offset];
}

int32_t ProgramState::scratchChunks(int32_t rank) const {
  const RankBuffers& rb = ranks_.at(static_cast<size_t>(rank));
  return static_cast<int32_t>(rb.regions[static_cast<size_t>(rb.layout.view(ir::Buffer::Scratch).region)].size());
}

template <typename Call>
void ProgramState::requireRange(const Call& call, SourcePos where, ChunkLocation at, int32_t count) {
  if (at.rank < 0 || at.rank >= binding.ranks)
    throw DslError(call(), where,
                   "rank " + std::to_string(at.rank) + " is out of range (the program has " +
                       std::to_string(binding.ranks) + " ranks)");
  if (count < 1) throw DslError(call(), where, "count must be at least 1, got " + std::to_string(count));
  if (at.index < 0) throw DslError(call(), where, "index " + std::to_string(at.index) + " is negative");
  if (at.buffer == ir::Buffer::Scratch) {
    if (int64_t{at.index} + count > kMaxScratchChunks)
      throw DslError(call(), where,
                     "scratch index " + std::to_string(at.index) + " is beyond the supported " +
                         std::to_string(kMaxScratchChunks) + " chunks");
    return;
  }
  const int32_t length = ranks_[static_cast<size_t>(at.rank)].layout.view(at.buffer).length;
  if (int64_t{at.index} + count > length)
    throw DslError(call(), where,
                   describeChunks(at, count) + " is outside the " + std::string(ir::bufferName(at.buffer)) +
                       " buffer, which has " + std::to_string(length) + " chunks");
}

template <typename Call>
void ProgramState::requireLive(const Call& call, SourcePos where, const ChunkRef& ref, const char* role) {
  if (ref.state_ == nullptr) throw DslError(call(), where, std::string("the ") + role + " reference is empty");
  if (ref.state_ != this)
    throw DslError(call(), where, std::string("the ") + role + " reference belongs to another program");
  for (int32_t i = 0; i < ref.count_; ++i) {
    const ChunkLocation at{ref.location_.rank, ref.location_.buffer, ref.location_.index + i};
    const Slot* s = find(at);
    if (s == nullptr || s->lastWrite <= ref.stamp_) continue;
    const TraceOp& w = trace[s->lastWrite - 1];
    throw DslError(call(), where,
                   std::string("the ") + role + " reference to " + describeRef(ref) +
                       " is stale: " + describeChunks(at) + " was overwritten by " + traceOpName(w.kind) + " at " +
                       describeLocation(w.where) + "; use the reference that call returned");
  }
}

template <typename Call>
void ProgramState::requireDirectives(const Call& call, SourcePos where, const Directives& d) {
  if (d.ch < -1 || d.ch >= semantics::kMaxChannels)
    throw DslError(call(), where,
                   "channel " + std::to_string(d.ch) + " is over the limit: MSCCL runtimes have channels 0.." +
                       std::to_string(semantics::kMaxChannels - 1));
  if (d.sendtb < -1 || d.recvtb < -1)
    throw DslError(call(), where, "a thread block label must be -1 (automatic) or at least 0");
}

bool ProgramState::overlap(ChunkLocation a, int32_t countA, ChunkLocation b, int32_t countB) const {
  if (a.rank != b.rank) return false;
  const semantics::RankLayout& l = ranks_[static_cast<size_t>(a.rank)].layout;
  const semantics::BufferView& va = l.view(a.buffer);
  const semantics::BufferView& vb = l.view(b.buffer);
  if (va.region != vb.region) return false;
  const int64_t sa = int64_t{va.base} + a.index, sb = int64_t{vb.base} + b.index;
  return sa < sb + countB && sb < sa + countA;
}

ChunkRef ProgramState::chunk(ChunkLocation at, int32_t count, SourcePos where) {
  auto call = [&] { return callText("chunk", describeChunks(at, count)); };
  requireRange(call, where, at, count);
  for (int32_t i = 0; i < count; ++i) {
    const ChunkLocation c{at.rank, at.buffer, at.index + i};
    const Slot* s = find(c);
    if (s == nullptr || s->value == semantics::ChunkValues::kUninitialized)
      throw DslError(call(), where,
                     "reads an uninitialised chunk: " + describeChunks(c) + " holds no data yet" +
                         (binding.product && at.buffer == ir::Buffer::Input ? " (compute it first)" : ""));
  }
  return ChunkRef(this, at, count, static_cast<uint32_t>(trace.size()));
}

ChunkRef ProgramState::record(TraceOpKind kind, const ChunkRef& src, ChunkLocation dst, Directives d, SourcePos where) {
  if (static_cast<int64_t>(trace.size()) >= base::limits::kMaxProgramTransfers)
    throw base::LimitExceeded("the program records more than " + std::to_string(base::limits::kMaxProgramTransfers) +
                              " copy and reduce operations, ccforge's limit (docs/limits.md)");
  // Chunk by chunk: the callers made sure that source and destination do not overlap.
  const uint32_t stamp = static_cast<uint32_t>(trace.size() + 1);
  for (int32_t i = 0; i < src.count_; ++i) {
    const semantics::ChunkValues::Id moved =
        slot(ChunkLocation{src.location_.rank, src.location_.buffer, src.location_.index + i}).value;
    Slot& s = slot(ChunkLocation{dst.rank, dst.buffer, dst.index + i});  // may grow scratch: after the read
    s.value = kind == TraceOpKind::Copy ? moved : values.reduce(s.value, moved);
    s.lastWrite = stamp;
  }
  trace.push_back(TraceOp{kind, src.location_, dst, src.count_, d, parallel_, where});
  parallelLcm = std::lcm(parallelLcm, parallel_);
  return ChunkRef(this, dst, src.count_, stamp);
}

ChunkRef ProgramState::copy(const ChunkRef& src, ChunkLocation to, Directives d, SourcePos where) {
  auto call = [&] { return callText("copy", describeRef(src) + " -> " + describeChunks(to, src.count_)); };
  requireLive(call, where, src, "source");
  requireRange(call, where, to, src.count_);
  requireDirectives(call, where, d);
  if (overlap(src.location_, src.count_, to, src.count_))
    throw DslError(call(), where, "source and destination share memory on rank " + std::to_string(to.rank));
  return record(TraceOpKind::Copy, src, to, d, where);
}

ChunkRef ProgramState::reduce(const ChunkRef& dst, const ChunkRef& src, Directives d, SourcePos where) {
  auto call = [&] { return callText("reduce", describeRef(dst) + " += " + describeRef(src)); };
  requireLive(call, where, dst, "destination");
  requireLive(call, where, src, "source");
  requireDirectives(call, where, d);
  if (dst.count_ != src.count_)
    throw DslError(
        call(), where,
        "count mismatch: reduces " + std::to_string(src.count_) + " chunks into " + std::to_string(dst.count_));
  if (overlap(src.location_, src.count_, dst.location_, dst.count_))
    throw DslError(call(), where, "source and destination share memory on rank " + std::to_string(dst.rank()));
  for (int32_t i = 0; i < dst.count_; ++i) {
    const std::optional<semantics::Atom> both =
        values.sharedAtom(slot(ChunkLocation{dst.rank(), dst.buffer(), dst.index() + i}).value,
                          slot(ChunkLocation{src.rank(), src.buffer(), src.index() + i}).value);
    if (both)
      throw DslError(call(), where,
                     "reducing a chunk twice: " + describeAtom(*both) + " is already part of both " +
                         describeChunks(ChunkLocation{dst.rank(), dst.buffer(), dst.index() + i}) + " and " +
                         describeChunks(ChunkLocation{src.rank(), src.buffer(), src.index() + i}));
  }
  return record(TraceOpKind::Reduce, src, dst.location_, d, where);
}

ChunkRef ProgramState::compute(ChunkLocation at, int32_t count, Directives d, SourcePos where) {
  auto call = [&] { return callText("compute", describeChunks(at, count)); };
  if (!binding.product)
    throw DslError(call(), where, "only a fused program computes: bind the program to a product (docs/fused.md)");
  requireRange(call, where, at, count);
  requireDirectives(call, where, d);
  if (static_cast<int64_t>(trace.size()) >= base::limits::kMaxProgramTransfers)
    throw base::LimitExceeded("the program records more than " + std::to_string(base::limits::kMaxProgramTransfers) +
                              " copy and reduce operations, ccforge's limit (docs/limits.md)");
  const semantics::Collective coll = binding.collective();
  const uint32_t stamp = static_cast<uint32_t>(trace.size() + 1);
  for (int32_t i = 0; i < count; ++i) {
    const ChunkLocation c{at.rank, at.buffer, at.index + i};
    Slot& s = slot(c);
    if (s.lastWrite != 0)
      throw DslError(call(), where,
                     describeChunks(c) + " is already defined, by " + traceOpName(trace[s.lastWrite - 1].kind) +
                         " at " + describeLocation(trace[s.lastWrite - 1].where) +
                         ": every product chunk is computed once");
    s.value = coll.initialInput(values, at.rank, at.index + i);
    s.lastWrite = stamp;
  }
  trace.push_back(TraceOp{TraceOpKind::Compute, at, at, count, d, parallel_, where});
  parallelLcm = std::lcm(parallelLcm, parallel_);
  return ChunkRef(this, at, count, stamp);
}

std::vector<ChunkRef> ProgramState::split(const ChunkRef& ref, int32_t parts, SourcePos where) {
  auto call = [&] { return callText("split", describeRef(ref) + " into " + std::to_string(parts)); };
  requireLive(call, where, ref, "split");
  if (parts < 1 || ref.count_ % parts != 0)
    throw DslError(
        call(), where,
        "cannot split " + std::to_string(ref.count_) + " chunks into " + std::to_string(parts) + " equal parts");
  std::vector<ChunkRef> out;
  const int32_t each = ref.count_ / parts;
  for (int32_t p = 0; p < parts; ++p)
    out.push_back(ChunkRef(this, ChunkLocation{ref.rank(), ref.buffer(), ref.index() + p * each}, each, ref.stamp_));
  return out;
}

ChunkRef ProgramState::group(const ChunkRef& a, const ChunkRef& b, SourcePos where) {
  auto call = [&] { return callText("group", describeRef(a) + " with " + describeRef(b)); };
  requireLive(call, where, a, "first");
  requireLive(call, where, b, "second");
  const ChunkRef& first = a.index() <= b.index() ? a : b;
  const ChunkRef& second = a.index() <= b.index() ? b : a;
  if (a.rank() != b.rank() || a.buffer() != b.buffer() || first.index() + first.count() != second.index())
    throw DslError(call(), where, "only adjacent chunks of one buffer of one rank can be grouped");
  return ChunkRef(this, first.location_, a.count_ + b.count_, static_cast<uint32_t>(trace.size()));
}

void ProgramState::parallelize(int32_t n, const std::function<void()>& fragment, SourcePos where) {
  auto call = [&] { return callText("parallelize", std::to_string(n)); };
  if (n < 1 || int64_t{parallel_} * n > kMaxParallel)
    throw DslError(call(), where,
                   "the parallelization factor must be between 1 and " + std::to_string(kMaxParallel) +
                       " (nested factors multiply), got " + std::to_string(int64_t{parallel_} * n));
  struct Restore {
    int32_t& factor;
    int32_t saved;
    ~Restore() { factor = saved; }
  } restore{parallel_, parallel_};
  parallel_ *= n;
  fragment();
}

}  // namespace ccforge::dsl
