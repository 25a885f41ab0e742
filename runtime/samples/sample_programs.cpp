#include "runtime/samples/sample_programs.hpp"

#include "semantics/protocol.hpp"

#include <string>
#include <utility>
#include <vector>

namespace ccforge::runtime::samples {
namespace {

using ir::Buffer;
using ir::OpType;

int32_t mod(int32_t a, int32_t n) { return ((a % n) + n) % n; }

ir::Algorithm header(std::string name, ir::CollectiveKind coll, std::string collName, int32_t ranks, int32_t chunks,
                     const SampleOptions& o) {
  ir::Algorithm a;
  a.name = std::move(name);
  a.proto = o.proto;
  a.nchannels = o.channels;
  a.nchunksperloop = chunks;
  a.ngpus = ranks;
  a.coll = coll;
  a.collName = std::move(collName);
  a.inplace = o.form == semantics::CallForm::InPlace;
  a.outofplace = o.form == semantics::CallForm::OutOfPlace;
  a.minBytes = 0;
  a.maxBytes = 0;
  return a;
}

// Appends steps to a tb, numbering them.
struct TbBuilder {
  ir::ThreadBlock& tb;
  int32_t add(OpType type, Buffer src, int32_t srcoff, Buffer dst, int32_t dstoff, int32_t cnt, int32_t depid = -1,
              int32_t deps = -1, bool hasdep = false) {
    ir::Step s;
    s.s = static_cast<int32_t>(tb.steps.size());
    s.type = type;
    s.srcbuf = src;
    s.srcoff = srcoff;
    s.dstbuf = dst;
    s.dstoff = dstoff;
    s.cnt = cnt;
    s.depid = depid;
    s.deps = deps;
    s.hasdep = hasdep;
    tb.steps.push_back(s);
    return s.s;
  }
  // Waits for every (tb, step) in `deps`: nops for all but the last, which the next step carries.
  std::pair<int32_t, int32_t> nopsFor(const std::vector<std::pair<int32_t, int32_t>>& deps) {
    for (size_t i = 0; i + 1 < deps.size(); ++i)
      add(OpType::Nop, Buffer::Input, -1, Buffer::Input, -1, 0, deps[i].first, deps[i].second);
    return deps.back();
  }
};

ir::ThreadBlock& addTb(ir::Gpu& g, int32_t send, int32_t recv, int32_t chan) {
  ir::ThreadBlock tb;
  tb.id = static_cast<int32_t>(g.threadBlocks.size());
  tb.send = send;
  tb.recv = recv;
  tb.chan = chan;
  g.threadBlocks.push_back(tb);
  return g.threadBlocks.back();
}

ir::Gpu& addGpu(ir::Algorithm& a, int32_t rank, int32_t in, int32_t out, int32_t scratch) {
  ir::Gpu g;
  g.id = rank;
  g.inputChunks = in;
  g.outputChunks = out;
  g.scratchChunks = scratch;
  a.gpus.push_back(g);
  return a.gpus.back();
}

}  // namespace

ir::Algorithm ringAllReduce(int32_t n, const SampleOptions& o) {
  const int32_t k = o.chunksPerStep;
  const int32_t chunks = n * k * o.channels;
  ir::Algorithm a =
      header("ring_allreduce_n" + std::to_string(n), ir::CollectiveKind::AllReduce, "allreduce", n, chunks, o);
  const bool inPlace = o.form == semantics::CallForm::InPlace;
  const Buffer out = inPlace ? Buffer::Input : Buffer::Output;
  for (int32_t r = 0; r < n; ++r) {
    ir::Gpu& g = addGpu(a, r, chunks, inPlace ? 0 : chunks, 0);
    for (int32_t c = 0; c < o.channels; ++c) {
      TbBuilder b{addTb(g, mod(r + 1, n), mod(r - 1, n), c)};
      auto at = [&](int32_t group) { return (c * n + mod(group, n)) * k; };
      b.add(OpType::Send, Buffer::Input, at(r), Buffer::Input, at(r), k);
      for (int32_t i = 0; i + 2 < n; ++i)
        b.add(OpType::RecvReduceSend, Buffer::Input, at(r - i - 1), Buffer::Input, at(r - i - 1), k);
      b.add(OpType::RecvReduceCopySend, Buffer::Input, at(r + 1), out, at(r + 1), k);
      for (int32_t j = 0; j + 2 < n; ++j) b.add(OpType::RecvCopySend, out, at(r - j), out, at(r - j), k);
      b.add(OpType::Recv, out, at(r + 2), out, at(r + 2), k);
    }
  }
  return a;
}

ir::Algorithm allPairsAllReduce(int32_t n, const SampleOptions& o) {
  const int32_t k = o.chunksPerStep;
  ir::Algorithm a =
      header("allpairs_allreduce_n" + std::to_string(n), ir::CollectiveKind::AllReduce, "allreduce", n, n * k, o);
  const bool inPlace = o.form == semantics::CallForm::InPlace;
  const Buffer result = inPlace ? Buffer::Input : Buffer::Output;
  for (int32_t r = 0; r < n; ++r) {
    ir::Gpu& g = addGpu(a, r, n * k, inPlace ? 0 : n * k, (n - 1) * k);
    auto slot = [&](int32_t p) { return p < r ? p : p - 1; };  // scratch slot of peer p
    // tb ids: senders 0..n-2, receivers n-1..2n-3 (by slot), the reducer 2n-2.
    const int32_t reducer = 2 * (n - 1);
    const int32_t lastReduce = (inPlace ? 0 : 1) + (n - 2) + (n - 1) - 1;  // [cpy] + nops + re chain
    for (int32_t p = 0; p < n; ++p) {
      if (p == r) continue;
      TbBuilder b{addTb(g, p, -1, 0)};
      b.add(OpType::Send, Buffer::Input, p * k, Buffer::Scratch, slot(r) * k, k);
      b.add(OpType::Send, result, r * k, result, r * k, k, reducer, lastReduce);
    }
    for (int32_t p = 0; p < n; ++p) {
      if (p == r) continue;
      TbBuilder b{addTb(g, -1, p, 0)};
      b.add(OpType::Recv, Buffer::Input, r * k, Buffer::Scratch, slot(p) * k, k, -1, -1, true);
      // In place, this overwrites the share the sender tb sent to p: p replies only after receiving it.
      b.add(OpType::Recv, result, p * k, result, p * k, k);
    }
    TbBuilder b{addTb(g, -1, -1, 0)};
    if (!inPlace) b.add(OpType::Copy, Buffer::Input, r * k, Buffer::Output, r * k, k);
    std::vector<std::pair<int32_t, int32_t>> received;
    for (int32_t s = 0; s < n - 1; ++s) received.emplace_back(n - 1 + s, 0);
    const auto last = b.nopsFor(received);
    // A flag every few reductions ends the executor's fusion of the chain before it holds
    // kMaxReduceFusion sources (semantics/loaded_program.hpp).
    for (int32_t s = 0; s < n - 1; ++s)
      b.add(OpType::Reduce, Buffer::Scratch, s * k, result, r * k, k, s == 0 ? last.first : -1,
            s == 0 ? last.second : -1, s == n - 2 || (s + 1) % (semantics::kMaxReduceFusion - 1) == 0);
  }
  return a;
}

ir::Algorithm twoStepAllToAll(int32_t nodes, int32_t perNode, const SampleOptions& o) {
  const int32_t k = o.chunksPerStep;
  const int32_t n = nodes * perNode;
  SampleOptions oop = o;
  oop.form = semantics::CallForm::OutOfPlace;
  ir::Algorithm a = header("two_step_alltoall_" + std::to_string(nodes) + "x" + std::to_string(perNode),
                           ir::CollectiveKind::AllToAll, "alltoall", n, n * k, oop);
  for (int32_t r = 0; r < n; ++r) {
    const int32_t node = r / perNode, local = r % perNode;
    auto remoteIndex = [&](int32_t other) { return other < node ? other : other - 1; };
    auto slot = [&](int32_t otherNode, int32_t source) { return (remoteIndex(otherNode) * perNode + source) * k; };
    ir::Gpu& g = addGpu(a, r, n * k, n * k, (nodes - 1) * perNode * k);
    // tb 0 copies: its own chunk to the output, and the chunks it relays itself to scratch.
    TbBuilder copies{addTb(g, -1, -1, 0)};
    copies.add(OpType::Copy, Buffer::Input, r * k, Buffer::Output, r * k, k);
    for (int32_t other = 0; other < nodes; ++other)
      if (other != node)
        copies.add(OpType::Copy, Buffer::Input, (other * perNode + local) * k, Buffer::Scratch, slot(other, local), k,
                   -1, -1, true);
    // Step 1 within the node: to each local peer, the chunk for it, then the chunks it relays.
    // Its receiver tb stores the peer's chunk for this rank, then the chunks this rank relays
    // (one per other node, in ascending node order, into scratch).
    std::vector<int32_t> order{node};
    for (int32_t other = 0; other < nodes; ++other)
      if (other != node) order.push_back(other);
    for (int32_t peerLocal = 0; peerLocal < perNode; ++peerLocal) {
      if (peerLocal == local) continue;
      TbBuilder b{addTb(g, node * perNode + peerLocal, -1, 0)};
      for (int32_t dest : order)
        b.add(OpType::Send, Buffer::Input, (dest * perNode + peerLocal) * k, Buffer::Output, 0, k);
    }
    std::vector<int32_t> receiverTb(perNode, -1);
    for (int32_t peerLocal = 0; peerLocal < perNode; ++peerLocal) {
      if (peerLocal == local) continue;
      const int32_t peer = node * perNode + peerLocal;
      ir::ThreadBlock& tb = addTb(g, -1, peer, 0);
      receiverTb[peerLocal] = tb.id;
      TbBuilder b{tb};
      b.add(OpType::Recv, Buffer::Input, 0, Buffer::Output, peer * k, k);
      for (size_t m = 1; m < order.size(); ++m)
        b.add(OpType::Recv, Buffer::Input, 0, Buffer::Scratch, slot(order[m], peerLocal), k, -1, -1, true);
    }
    // Step 2 across nodes: forward what was gathered for node `other` to the rank with this local index there.
    for (int32_t other = 0; other < nodes; ++other) {
      if (other == node) continue;
      const int32_t peer = other * perNode + local;
      TbBuilder b{addTb(g, peer, -1, 1)};
      const int32_t position = 1 + remoteIndex(other);  // of `other` in `order`; also its step in the copy tb
      std::vector<std::pair<int32_t, int32_t>> filled;
      for (int32_t source = 0; source < perNode; ++source)
        filled.push_back(source == local ? std::make_pair(0, position) : std::make_pair(receiverTb[source], position));
      const auto last = b.nopsFor(filled);
      b.add(OpType::Send, Buffer::Scratch, slot(other, 0), Buffer::Output, 0, perNode * k, last.first, last.second);
    }
    for (int32_t other = 0; other < nodes; ++other) {
      if (other == node) continue;
      TbBuilder b{addTb(g, -1, other * perNode + local, 1)};
      b.add(OpType::Recv, Buffer::Scratch, 0, Buffer::Output, other * perNode * k, perNode * k);
    }
  }
  return a;
}

ir::Algorithm ringAllGather(int32_t n, const SampleOptions& o) {
  const int32_t k = o.chunksPerStep;
  ir::Algorithm a =
      header("ring_allgather_n" + std::to_string(n), ir::CollectiveKind::AllGather, "allgather", n, n * k, o);
  const bool inPlace = o.form == semantics::CallForm::InPlace;
  for (int32_t r = 0; r < n; ++r) {
    ir::Gpu& g = addGpu(a, r, inPlace ? 0 : k, n * k, 0);
    TbBuilder b{addTb(g, mod(r + 1, n), mod(r - 1, n), 0)};
    // In place the input is the rank's shard of the output, so the ring starts from there.
    if (inPlace)
      b.add(OpType::Send, Buffer::Output, r * k, Buffer::Output, r * k, k);
    else
      b.add(OpType::Send, Buffer::Input, 0, Buffer::Output, r * k, k);
    for (int32_t j = 1; j + 1 < n; ++j)
      b.add(OpType::RecvCopySend, Buffer::Output, mod(r - j, n) * k, Buffer::Output, mod(r - j, n) * k, k);
    b.add(OpType::Recv, Buffer::Output, mod(r + 1, n) * k, Buffer::Output, mod(r + 1, n) * k, k);
    if (!inPlace) {
      TbBuilder c{addTb(g, -1, -1, 0)};
      c.add(OpType::Copy, Buffer::Input, 0, Buffer::Output, r * k, k);
    }
  }
  return a;
}

ir::Algorithm ringReduceScatter(int32_t n, const SampleOptions& o) {
  const int32_t k = o.chunksPerStep;
  ir::Algorithm a = header("ring_reducescatter_n" + std::to_string(n), ir::CollectiveKind::ReduceScatter,
                           "reducescatter", n, n * k, o);
  for (int32_t r = 0; r < n; ++r) {
    ir::Gpu& g = addGpu(a, r, n * k, o.form == semantics::CallForm::InPlace ? 0 : k, 0);
    TbBuilder b{addTb(g, mod(r + 1, n), mod(r - 1, n), 0)};
    b.add(OpType::Send, Buffer::Input, mod(r - 1, n) * k, Buffer::Input, mod(r - 1, n) * k, k);
    for (int32_t i = 2; i < n; ++i)
      b.add(OpType::RecvReduceSend, Buffer::Input, mod(r - i, n) * k, Buffer::Input, mod(r - i, n) * k, k);
    b.add(OpType::RecvReduceCopy, Buffer::Input, r * k, Buffer::Output, 0, k);
  }
  return a;
}

}  // namespace ccforge::runtime::samples
