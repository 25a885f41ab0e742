#include "fused_library.hpp"

#include <charconv>
#include <stdexcept>

#include "dsl/fused_product.hpp"
#include "ir/names.hpp"
#include "semantics/protocol.hpp"
#include "semantics/runtime_profile.hpp"

namespace ccforge::algorithms {
namespace {

using ir::Buffer;
using ir::OpType;

ir::Step step(OpType type, Buffer src, int32_t srcoff, Buffer dst, int32_t dstoff) {
  ir::Step s;
  s.type = type;
  s.srcbuf = src;
  s.srcoff = srcoff;
  s.dstbuf = dst;
  s.dstoff = dstoff;
  s.cnt = 1;
  return s;
}

void dependOn(ir::Step& s, int32_t tb, int32_t stepIndex) {
  s.depid = tb;
  s.deps = stepIndex;
}

// A nop that only waits for step `at` of thread block `tb` (the runtime adds the waits of the nops
// right before a step to the step's own one dependency).
ir::Step waitFor(int32_t tb, int32_t at) {
  ir::Step s = step(OpType::Nop, Buffer::Input, -1, Buffer::Output, -1);
  s.cnt = 0;
  dependOn(s, tb, at);
  return s;
}

void number(ir::ThreadBlock& tb) {
  for (size_t i = 0; i < tb.steps.size(); ++i) tb.steps[i].s = static_cast<int32_t>(i);
}

// The order rank r computes its product chunks in (destination rank p owns chunks p*C..p*C+C-1).
std::vector<int32_t> computeOrder(const FusedParameters& p, int32_t rank) {
  std::vector<int32_t> out;
  const int32_t R = p.ranks, C = p.chunksPerRank;
  for (int32_t k = 0; k < R; ++k) {
    const int32_t dest = p.order == FusedOrder::Natural ? k : (rank + 1 + k) % R;
    for (int32_t c = 0; c < C; ++c) out.push_back(dest * C + c);
  }
  return out;
}

// The compute step producing product chunk q (rows q * perChunk ..); `published` when readers
// in other thread blocks wait for it.
ir::Step computeStep(const FusedParameters& p, int32_t q, int32_t perChunk, bool published) {
  ir::Step s = step(OpType::Compute, Buffer::Input, -1, Buffer::Input, q);
  s.srcOperand = true;
  s.op = p.op;
  s.row = q * perChunk;
  s.nrows = perChunk;
  s.hasdep = published;
  return s;
}

}  // namespace

ir::Algorithm fusedProgram(const FusedParameters& p) {
  const int32_t R = p.ranks, C = p.chunksPerRank;
  if (R < 2) throw std::invalid_argument("a fused program needs at least 2 ranks");
  if (C < 1) throw std::invalid_argument("chunks (per rank) must be at least 1");
  const int32_t G = p.chunksPerStep;
  if (G < 1 || C % G != 0)
    throw std::invalid_argument("group (chunks per communication step) must divide chunks (" + std::to_string(C) + ")");
  const int32_t chunks = R * C;
  if (p.rows < 1 || p.rows % chunks != 0)
    throw std::invalid_argument("the product's rows (" + std::to_string(p.rows) +
                                ") must be a positive multiple of ranks * chunks (" + std::to_string(chunks) + ")");
  const dsl::FusedProduct product{p.op, p.rows, p.cols, p.inner, p.tableRows};
  product.validate();
  if (p.computeTbs < 0 || p.computeTbs > chunks)
    throw std::invalid_argument("computetbs (compute thread blocks per rank) must be between 0 and ranks * chunks (" +
                                std::to_string(chunks) + ")");
  // computetbs=0: each communication block computes the slices it sends (the local block the
  // rank's own), so a slice reaches its send in program order, without a flag between blocks.
  const bool inlineCompute = p.computeTbs == 0;
  if (inlineCompute && p.bulkSynchronous)
    throw std::invalid_argument("the bulk-synchronous baseline needs compute thread blocks (computetbs at least 1)");
  const bool allreduce = p.op == ir::ComputeOp::Gemv;
  const int32_t perChunk = p.rows / chunks;

  ir::Algorithm a;
  const char* opName = p.op == ir::ComputeOp::Gemv           ? "gemv-allreduce"
                       : p.op == ir::ComputeOp::EmbeddingBag ? "embedding-alltoall"
                                                             : "gemm-alltoall";
  a.name = std::string(opName) + (p.bulkSynchronous ? "-bulk" : "") + "-r" + std::to_string(R) + "-c" +
           std::to_string(C) + (G > 1 ? "-g" + std::to_string(G) : "") +
           (p.lanes > 1 ? "-l" + std::to_string(p.lanes) : "") +
           (p.order == FusedOrder::RemoteFirst ? "-remote-first" : "");
  a.proto = p.protocol;
  // A channel holds at most kMaxPeersPerChannel sending (and receiving) thread blocks: peer
  // index k sends on channel k / kMaxPeersPerChannel. The receiving side of that connection has
  // index R - 2 - k for the same pair, so receivers take the channel of that index.
  auto channelOf = [&](int32_t k) { return k / semantics::kMaxPeersPerChannel; };
  const int32_t laneChannels = channelOf(R - 2) + 1;
  const int32_t L = p.lanes, groups = C / G;
  if (L < 1 || groups % L != 0)
    throw std::invalid_argument(
        "lanes must divide the groups per destination (chunks / group = " + std::to_string(groups) + ")");
  a.nchannels = L * laneChannels;
  a.nchunksperloop = chunks;
  a.ngpus = R;
  a.coll = allreduce ? ir::CollectiveKind::AllReduce : ir::CollectiveKind::AllToAll;
  a.collName = std::string(ir::kFusedCollPrefix) + (allreduce ? "allreduce" : "alltoall");
  a.fused = true;
  a.inplace = false;
  a.outofplace = true;
  a.minBytes = 0;
  a.maxBytes = 0;
  // Thread blocks of rank r: 0..N-1 compute (N = computeTbs, the slices dealt round-robin in
  // compute order); then per lane h a local block, which reduces (allreduce) or copies the own
  // slice (alltoall), senders k = 0..R-2 to peer (r+1+k) % R and receivers from it. Group i of
  // chunks (chunks i*G .. i*G+G-1 of each destination) belongs to lane i % L. With N = 0 the
  // sender of peer p and the local block of a lane compute p's and the own chunks of its groups,
  // each right before its use.
  const int32_t N = p.computeTbs;
  const int32_t laneTbs = 1 + 2 * (R - 1);
  auto laneOf = [&](int32_t c) { return (c / G) % L; };
  auto indexInLane = [&](int32_t c) { return c / G / L; };  // the group's position among its lane's
  auto localTb = [&](int32_t h) { return N + h * laneTbs; };
  auto sendTb = [&](int32_t h, int32_t k) { return localTb(h) + 1 + k; };
  auto recvTb = [&](int32_t h, int32_t k) { return localTb(h) + R + k; };
  for (int32_t r = 0; r < R; ++r) {
    ir::Gpu g;
    g.id = r;
    g.inputChunks = chunks;
    g.outputChunks = chunks;
    g.scratchChunks = allreduce ? (R - 1) * C : 0;
    product.declareOn(g);
    const std::vector<int32_t> order = inlineCompute ? std::vector<int32_t>{} : computeOrder(p, r);
    std::vector<std::pair<int32_t, int32_t>> producer(static_cast<size_t>(chunks));  // chunk q: (tb, step)
    std::vector<ir::ThreadBlock> computeTbs(static_cast<size_t>(N));
    for (int32_t t = 0; t < N; ++t) computeTbs[static_cast<size_t>(t)].id = t;
    for (size_t i = 0; i < order.size(); ++i) {
      const int32_t q = order[i];
      ir::ThreadBlock& tb = computeTbs[i % static_cast<size_t>(N)];
      producer[static_cast<size_t>(q)] = {tb.id, static_cast<int32_t>(tb.steps.size())};
      tb.steps.push_back(computeStep(p, q, perChunk, true));
    }
    // Bulk-synchronous: every reader waits for tb 0's last compute step, which first waits for
    // the other compute tbs' last steps: tb 1's as its own dependency, the others' through a nop
    // each before it (the runtime gives a step one dependency and adds the waits of the nops
    // right before it).
    auto lastStepOf = [&](int32_t t) {
      return static_cast<int32_t>(computeTbs[static_cast<size_t>(t)].steps.size()) - 1;
    };
    if (p.bulkSynchronous && N > 1) {
      ir::ThreadBlock& first = computeTbs.front();
      dependOn(first.steps.back(), 1, lastStepOf(1));
      for (int32_t t = 2; t < N; ++t) first.steps.insert(first.steps.end() - 1, waitFor(t, lastStepOf(t)));
    }
    // The step a reader of chunk q waits for (bulk: tb 0's last, which joins every compute tb).
    auto producerOf = [&](int32_t q) {
      return p.bulkSynchronous ? std::pair<int32_t, int32_t>{0, lastStepOf(0)} : producer[static_cast<size_t>(q)];
    };
    auto peer = [&](int32_t k) { return (r + 1 + k) % R; };
    // Before `s`, the first reader of chunks q .. q + G - 1 in `reader`: inline, it computes them;
    // else it waits for their producers, all but the last through a nop each.
    auto readAfterProducers = [&](ir::ThreadBlock& reader, ir::Step& s, int32_t q) {
      for (int32_t i = 0; i < G; ++i) {
        if (inlineCompute) {
          reader.steps.push_back(computeStep(p, q + i, perChunk, false));
        } else if (i + 1 < G && !p.bulkSynchronous) {
          const auto [tb, at] = producerOf(q + i);
          reader.steps.push_back(waitFor(tb, at));
        } else if (i + 1 == G) {
          const auto [tb, at] = producerOf(q + i);
          dependOn(s, tb, at);
        }
      }
    };
    // Communication steps move G chunks (one group) at a time.
    auto groupStep = [&](OpType type, Buffer src, int32_t srcoff, Buffer dst, int32_t dstoff) {
      ir::Step s = step(type, src, srcoff, dst, dstoff);
      s.cnt = G;
      return s;
    };

    std::vector<ir::ThreadBlock> locals(static_cast<size_t>(L));
    std::vector<std::vector<ir::ThreadBlock>> senders(static_cast<size_t>(L)), receivers(static_cast<size_t>(L));
    for (int32_t h = 0; h < L; ++h) {
      locals[h].id = localTb(h);
      for (int32_t k = 0; k < R - 1; ++k) {
        ir::ThreadBlock s;
        s.id = sendTb(h, k);
        s.send = peer(k);
        s.chan = h * laneChannels + channelOf(k);
        senders[h].push_back(s);
        ir::ThreadBlock v;
        v.id = recvTb(h, k);
        v.recv = peer(k);
        v.chan = h * laneChannels + channelOf(R - 2 - k);
        receivers[h].push_back(v);
      }
    }
    if (allreduce) {
      // Reduce-scatter into rank r's slice, then allgather it (all pairs).
      for (int32_t k = 0; k < R - 1; ++k)
        for (int32_t c = 0; c < C; c += G) {
          const int32_t q = peer(k) * C + c, h = laneOf(c);
          // The peer receives from rank r on its receiver R - 2 - k, into that receiver's scratch.
          ir::Step s = groupStep(OpType::Send, Buffer::Input, q, Buffer::Scratch, (R - 2 - k) * C + c);
          readAfterProducers(senders[h][k], s, q);
          senders[h][k].steps.push_back(s);
          ir::Step v = groupStep(OpType::Recv, Buffer::Input, r * C + c, Buffer::Scratch, k * C + c);
          v.hasdep = true;
          receivers[h][k].steps.push_back(v);
        }
      std::vector<int32_t> reduced;  // per group: its local block's step that completes it
      for (int32_t c = 0; c < C; c += G) {
        const int32_t q = r * C + c, h = laneOf(c), at = indexInLane(c);
        ir::ThreadBlock& local = locals[h];
        ir::Step copy = groupStep(OpType::Copy, Buffer::Input, q, Buffer::Output, q);
        readAfterProducers(local, copy, q);
        local.steps.push_back(copy);
        // Every peer's share arrived (a nop per receiver but the last, whose wait the first `re`
        // carries), then one `re` chain the executor fuses into a single pass over the shares; a
        // flag every kMaxReduceFusion - 1 of them ends a chain before the executor's limit.
        for (int32_t k = 0; k + 1 < R - 1; ++k) local.steps.push_back(waitFor(recvTb(h, k), at));
        for (int32_t k = 0; k < R - 1; ++k) {
          ir::Step re = groupStep(OpType::Reduce, Buffer::Scratch, k * C + c, Buffer::Output, q);
          if (k == 0) dependOn(re, recvTb(h, R - 2), at);
          re.hasdep = k == R - 2 || (k + 1) % (semantics::kMaxReduceFusion - 1) == 0;
          local.steps.push_back(re);
        }
        reduced.push_back(static_cast<int32_t>(local.steps.size()) - 1);
      }
      for (int32_t k = 0; k < R - 1; ++k)
        for (int32_t c = 0; c < C; c += G) {
          const int32_t h = laneOf(c);
          ir::Step s = groupStep(OpType::Send, Buffer::Output, r * C + c, Buffer::Output, r * C + c);
          dependOn(s, localTb(h), reduced[static_cast<size_t>(c / G)]);
          senders[h][k].steps.push_back(s);
          const int32_t from = peer(k);
          receivers[h][k].steps.push_back(
              groupStep(OpType::Recv, Buffer::Output, from * C + c, Buffer::Output, from * C + c));
        }
    } else {
      // AllToAll: slice p*C..p*C+C-1 of rank r goes to rank p's chunks r*C..r*C+C-1.
      for (int32_t c = 0; c < C; c += G) {
        const int32_t q = r * C + c;
        ir::Step copy = groupStep(OpType::Copy, Buffer::Input, q, Buffer::Output, q);
        readAfterProducers(locals[laneOf(c)], copy, q);
        locals[laneOf(c)].steps.push_back(copy);
      }
      for (int32_t k = 0; k < R - 1; ++k)
        for (int32_t c = 0; c < C; c += G) {
          const int32_t q = peer(k) * C + c, h = laneOf(c);
          ir::Step s = groupStep(OpType::Send, Buffer::Input, q, Buffer::Output, r * C + c);
          readAfterProducers(senders[h][k], s, q);
          senders[h][k].steps.push_back(s);
          const int32_t from = peer(k);
          receivers[h][k].steps.push_back(
              groupStep(OpType::Recv, Buffer::Input, r * C + c, Buffer::Output, from * C + c));
        }
    }
    for (auto& tb : computeTbs) g.threadBlocks.push_back(std::move(tb));
    for (int32_t h = 0; h < L; ++h) {
      g.threadBlocks.push_back(std::move(locals[h]));
      for (auto& s : senders[h]) g.threadBlocks.push_back(std::move(s));
      for (auto& v : receivers[h]) g.threadBlocks.push_back(std::move(v));
    }
    for (auto& tb : g.threadBlocks) {
      number(tb);
      const int32_t maxSteps = semantics::fusedProfile().maxStepsPerThreadBlock;
      if (tb.steps.size() > static_cast<size_t>(maxSteps))
        throw std::invalid_argument(
            "thread block " + std::to_string(tb.id) + " of each rank needs " + std::to_string(tb.steps.size()) +
            " steps; the executor stores " + std::to_string(maxSteps) +
            " per thread block (fewer chunks, or more compute thread blocks: computetbs, or more lanes)");
    }
    a.gpus.push_back(std::move(g));
  }
  return a;
}

const std::vector<FusedEntry>& fusedLibrary() {
  static const std::vector<FusedEntry> entries{
      {"gemv-allreduce",
       "y = sum_r W_r x_r on every rank: each rank's partial GEMV rows feed an all-pairs allreduce as they are "
       "computed",
       ir::ComputeOp::Gemv,
       {"m", "k"}},
      {"embedding-alltoall",
       "DLRM: each rank pools its embedding table for the whole batch; batch slices go to their ranks as they are "
       "pooled",
       ir::ComputeOp::EmbeddingBag,
       {"batch", "dim", "pooling", "table"}},
      {"gemm-alltoall",
       "MoE: each rank's expert GEMM output rows return to the tokens' ranks as tiles finish",
       ir::ComputeOp::Gemm,
       {"tokens", "hidden", "ffn"}},
  };
  return entries;
}

const FusedEntry* findFused(std::string_view name) {
  for (const FusedEntry& e : fusedLibrary())
    if (e.name == name) return &e;
  return nullptr;
}

FusedParameters fusedParameters(std::string_view name, const std::vector<std::string>& settings) {
  const FusedEntry* e = findFused(name);
  if (!e) throw std::invalid_argument("unknown fused operator '" + std::string(name) + "'");
  FusedParameters p;
  p.op = e->op;
  p.ranks = 4;
  p.chunksPerRank = 1;
  switch (p.op) {
    case ir::ComputeOp::Gemv:
      p.rows = 64;
      p.inner = 32;
      p.cols = 1;
      break;
    case ir::ComputeOp::EmbeddingBag:
      p.rows = 64;
      p.cols = 16;
      p.inner = 4;
      p.tableRows = 100;
      break;
    case ir::ComputeOp::Gemm:
      p.rows = 64;
      p.inner = 16;
      p.cols = 16;
      break;
    case ir::ComputeOp::None: break;
  }
  for (const std::string& kv : settings) {
    const auto eq = kv.find('=');
    if (eq == std::string::npos) throw std::invalid_argument("expected key=value, got '" + kv + "'");
    const std::string key = kv.substr(0, eq), text = kv.substr(eq + 1);
    int64_t v = 0;
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (ec != std::errc{} || end != text.data() + text.size() || v < 0 || v > (int64_t{1} << 30))
      throw std::invalid_argument("'" + kv + "': the value must be a non-negative integer");
    const auto i = static_cast<int32_t>(v);
    if (key == "ranks")
      p.ranks = i;
    else if (key == "chunks")
      p.chunksPerRank = i;
    else if (key == "order")
      p.order = i == 0 ? FusedOrder::Natural : FusedOrder::RemoteFirst;
    else if (key == "bulk")
      p.bulkSynchronous = i != 0;
    else if (key == "computetbs")
      p.computeTbs = i;
    else if (key == "group")
      p.chunksPerStep = i;
    else if (key == "lanes")
      p.lanes = i;
    else if (key == "m" || key == "batch" || key == "tokens")
      p.rows = i;
    else if (key == "k" || key == "pooling" || key == "hidden")
      p.inner = i;
    else if (key == "dim" || key == "ffn")
      p.cols = i;
    else if (key == "table")
      p.tableRows = i;
    else
      throw std::invalid_argument("unknown parameter '" + key + "' for " + std::string(name));
  }
  return p;
}

}  // namespace ccforge::algorithms
