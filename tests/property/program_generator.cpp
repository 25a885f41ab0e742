#include "program_generator.hpp"

#include <algorithm>
#include <array>
#include <map>
#include <optional>
#include <utility>

#include "ir/names.hpp"
#include "fused_programs.hpp"
#include "program_mutator.hpp"
#include "rng.hpp"
#include "semantics/step_kinds.hpp"

namespace ccforge::property {
namespace {

using ir::Buffer;
using ir::OpType;

constexpr int32_t kMaxTbsPerRank = 4;
constexpr int32_t kMaxStepsPerTb = 8;
constexpr int32_t kAttemptsPerShape = 20;

struct Loc {
  Buffer buf = Buffer::Input;
  int32_t off = -1;
};

// One step as planned: where it runs and what it does; its thread block is chosen later.
struct PlannedStep {
  int32_t rank = 0;
  OpType type = OpType::Nop;
  Loc src, dst;
  int32_t cnt = 1;
  int32_t sendPeer = -1;
  int32_t recvPeer = -1;
  bool hasdep = false;  // publishes a flag even if nobody waits for it
};

// Steps that take one place in the global order: a transfer chain (a send, the steps that forward
// it, the receive that ends it, all on one channel) or local steps of one rank kept together on one
// thread block (so that consecutive `re` steps stay a fused chain).
struct Action {
  std::vector<PlannedStep> steps;
  int32_t channel = 0;
};
using Piece = std::vector<Action>;

struct Target {
  int32_t rank;
  Loc loc;
};

struct Shape {
  semantics::CollectiveType type = semantics::CollectiveType::AllReduce;
  int32_t ranks = 2;
  int32_t chunks = 1;  // nchunksperloop
  int32_t root = 0;
  int32_t channels = 1;
  ir::Protocol protocol = ir::Protocol::Simple;
  std::vector<semantics::CallForm> forms;
  std::optional<semantics::CustomCollectiveSpec> custom;  // type Custom: the chunk map
};

semantics::Collective collectiveOf(const Shape& s) {
  return s.custom ? semantics::Collective::custom(*s.custom)
                  : semantics::Collective::standard(s.type, s.ranks, s.chunks, s.root);
}

// A chunk range a step reads or writes, in the memory regions a call form lays the buffers out in.
struct Access {
  semantics::CallForm form;
  int32_t region;
  int32_t begin;
  int32_t end;
  bool writes;
};

class Planner {
 public:
  Planner(Rng& rng, const Shape& shape)
      : rng_(rng), shape_(shape), collective_(collectiveOf(shape)), scratch_(static_cast<size_t>(shape.ranks), 0) {}

  // Every action of the collective, in one global order.
  std::vector<Action> plan() {
    std::vector<Piece> pieces;
    std::vector<Action> late;  // in-place alltoall: results leave scratch after every input was read
    const int32_t n = shape_.ranks, shard = shape_.chunks / n;
    auto forRuns = [&](int32_t length, auto&& body) {
      for (int32_t k = 0; k < length;) {
        const int32_t len = std::min(length - k, rng_.between(1, 3));
        body(k, len);
        k += len;
      }
    };
    auto everyRank = [&](auto&& loc) {
      std::vector<Target> out;
      for (int32_t r = 0; r < n; ++r) out.push_back({r, loc(r)});
      return out;
    };
    switch (shape_.type) {
      case semantics::CollectiveType::AllReduce:
        forRuns(shape_.chunks, [&](int32_t g, int32_t len) {
          const int32_t c = rng_.below(static_cast<size_t>(n));
          std::vector<Target> others;
          for (int32_t r = 0; r < n; ++r)
            if (r != c) others.push_back({r, Loc{Buffer::Output, g}});
          pieces.push_back(reduction(c, g, len, Loc{Buffer::Output, g}, others));
        });
        break;
      case semantics::CollectiveType::Reduce:
        forRuns(shape_.chunks, [&](int32_t g, int32_t len) {
          pieces.push_back(reduction(shape_.root, g, len, Loc{Buffer::Output, g}, {}));
        });
        break;
      case semantics::CollectiveType::ReduceScatter:
        for (int32_t r = 0; r < n; ++r)
          forRuns(shard, [&](int32_t k, int32_t len) {
            pieces.push_back(reduction(r, r * shard + k, len, Loc{Buffer::Output, k}, {}));
          });
        break;
      case semantics::CollectiveType::AllGather:
        for (int32_t q = 0; q < n; ++q)
          forRuns(shard, [&](int32_t k, int32_t len) {
            pieces.push_back(multicast(q, Loc{Buffer::Input, k}, len, everyRank([&](int32_t) {
                                         return Loc{Buffer::Output, q * shard + k};
                                       })));
          });
        break;
      case semantics::CollectiveType::Broadcast:
        forRuns(shape_.chunks, [&](int32_t g, int32_t len) {
          pieces.push_back(multicast(shape_.root, Loc{Buffer::Input, g}, len, everyRank([&](int32_t) {
                                       return Loc{Buffer::Output, g};
                                     })));
        });
        break;
      case semantics::CollectiveType::Gather:
        for (int32_t q = 0; q < n; ++q)
          forRuns(shard, [&](int32_t k, int32_t len) {
            pieces.push_back(
                multicast(q, Loc{Buffer::Input, k}, len, {{shape_.root, Loc{Buffer::Output, q * shard + k}}}));
          });
        break;
      case semantics::CollectiveType::Scatter:
        for (int32_t r = 0; r < n; ++r)
          forRuns(shard, [&](int32_t k, int32_t len) {
            pieces.push_back(
                multicast(shape_.root, Loc{Buffer::Input, r * shard + k}, len, {{r, Loc{Buffer::Output, k}}}));
          });
        break;
      case semantics::CollectiveType::AllToAll: {
        // In place, rank r's output q*shard+k is its input for rank q: stage results in scratch.
        const bool staged =
            std::find(shape_.forms.begin(), shape_.forms.end(), semantics::CallForm::InPlace) != shape_.forms.end();
        for (int32_t q = 0; q < n; ++q)
          for (int32_t r = 0; r < n; ++r)
            forRuns(shard, [&](int32_t k, int32_t len) {
              const Loc out{Buffer::Output, q * shard + k};
              if (!staged || r == q) {
                pieces.push_back(multicast(q, Loc{Buffer::Input, r * shard + k}, len, {{r, out}}));
                return;
              }
              const Loc stage = fresh(r, len);
              pieces.push_back(multicast(q, Loc{Buffer::Input, r * shard + k}, len, {{r, stage}}));
              late.push_back(local(r, OpType::Copy, stage, out, len));
            });
        break;
      }
      case semantics::CollectiveType::Custom:
        for (const semantics::ChunkMapEntry& e : shape_.custom->post) {
          const Loc out{Buffer::Output, e.index};
          if (e.value.size() == 1)
            pieces.push_back(multicast(e.value[0].rank, Loc{Buffer::Input, e.value[0].index}, 1, {{e.rank, out}}));
          else
            pieces.push_back(reduction(e.rank, e.value[0].index, 1, out, {}));
        }
        break;
      default: break;
    }
    std::vector<Action> order;
    std::vector<size_t> pieceOf;
    std::vector<size_t> next(pieces.size(), 0);
    std::vector<size_t> open;
    for (size_t p = 0; p < pieces.size(); ++p)
      if (!pieces[p].empty()) open.push_back(p);
    while (!open.empty()) {
      const size_t i = static_cast<size_t>(rng_.below(open.size()));
      const size_t p = open[i];
      order.push_back(pieces[p][next[p]++]);
      pieceOf.push_back(p);
      if (next[p] == pieces[p].size()) open.erase(open.begin() + static_cast<std::ptrdiff_t>(i));
    }
    postEarly(order, pieceOf);
    rng_.shuffle(late);
    order.insert(order.end(), late.begin(), late.end());
    return order;
  }

  const std::vector<int32_t>& scratchChunks() const { return scratch_; }

 private:
  // Sometimes receives a plain transfer (a send and a receive) later than it is sent: after actions
  // of other pieces that do not receive on its connection (receives stay in the order of the sends).
  // Such a program needs FIFO slots for what is in flight, and may deadlock with too few: the slot
  // counts verify derives are put to the test.
  void postEarly(std::vector<Action>& order, std::vector<size_t>& pieceOf) {
    for (size_t k = 0; k < order.size(); ++k) {
      const std::vector<PlannedStep>& chain = order[k].steps;
      if (chain.size() != 2 || chain[0].type != OpType::Send || chain[1].type != OpType::Recv || !rng_.chance(50))
        continue;
      const int32_t from = chain[0].rank, to = chain[1].rank, channel = order[k].channel;
      size_t end = k + 1;  // the receive may move up to before `end`
      for (; end < order.size() && pieceOf[end] != pieceOf[k]; ++end) {
        const bool receivesThere =
            order[end].channel == channel &&
            std::any_of(order[end].steps.begin(), order[end].steps.end(),
                        [&](const PlannedStep& st) { return st.rank == to && st.recvPeer == from; });
        if (receivesThere) break;
      }
      if (end == k + 1) continue;
      const size_t at = k + 1 + static_cast<size_t>(rng_.below(end - k - 1)) + 1;
      Action receive{{chain[1]}, channel};
      order[k].steps.pop_back();
      order.insert(order.begin() + static_cast<std::ptrdiff_t>(at), receive);
      pieceOf.insert(pieceOf.begin() + static_cast<std::ptrdiff_t>(at), pieceOf[k]);
    }
  }

  Loc fresh(int32_t rank, int32_t len) {
    Loc l{Buffer::Scratch, scratch_[static_cast<size_t>(rank)]};
    scratch_[static_cast<size_t>(rank)] += len;
    return l;
  }

  // Whether a and b are the same memory in every call form the program serves.
  bool sameMemory(int32_t rank, Loc a, Loc b) const {
    for (semantics::CallForm f : shape_.forms) {
      const semantics::RankLayout l = collective_.layout(rank, f, 0);
      const semantics::BufferView &va = l.view(a.buf), &vb = l.view(b.buf);
      if (va.region != vb.region || va.base + a.off != vb.base + b.off) return false;
    }
    return true;
  }

  static PlannedStep step(int32_t rank, OpType type, Loc src, Loc dst, int32_t cnt) {
    return PlannedStep{rank, type, src, dst, cnt, -1, -1, false};
  }
  static Action local(int32_t rank, OpType type, Loc src, Loc dst, int32_t cnt) {
    return Action{{step(rank, type, src, dst, cnt)}, 0};
  }
  Action startChain(PlannedStep first) { return Action{{first}, rng_.below(static_cast<size_t>(shape_.channels))}; }
  // Appends a receiving step of `rank` (from the chain's last rank) to the chain.
  static void receive(Action& chain, int32_t rank, OpType type, Loc src, Loc dst) {
    PlannedStep& last = chain.steps.back();
    last.sendPeer = rank;
    PlannedStep s = step(rank, type, src, dst, last.cnt);
    s.recvPeer = last.rank;
    chain.steps.push_back(s);
  }

  // Copies `len` chunks at `from` on rank q to every target: locally by cpy, to other ranks along
  // one or two random paths (through relay ranks, sometimes). `head`, when given, is a chain whose
  // last step (on q) forwards the data: the first path continues it.
  Piece multicast(int32_t q, Loc from, int32_t len, std::vector<Target> targets, std::optional<Action> head = {}) {
    Piece piece;
    std::vector<Target> remote;
    for (const Target& t : targets) {
      if (t.rank != q)
        remote.push_back(t);
      else if (!sameMemory(q, from, t.loc))
        copy(piece, q, from, t.loc, len);
    }
    rng_.shuffle(remote);
    const size_t split =
        remote.size() >= 2 && rng_.chance(35) ? 1 + static_cast<size_t>(rng_.below(remote.size() - 1)) : remote.size();
    std::vector<Target> first(remote.begin(), remote.begin() + static_cast<std::ptrdiff_t>(split));
    std::vector<Target> second(remote.begin() + static_cast<std::ptrdiff_t>(split), remote.end());
    if (!first.empty()) path(piece, q, from, len, first, std::move(head));
    if (!second.empty()) path(piece, q, from, len, second, std::nullopt);
    return piece;
  }

  // A local copy, sometimes through scratch.
  void copy(Piece& piece, int32_t rank, Loc from, Loc to, int32_t len) {
    if (rng_.chance(15)) {
      const Loc s = fresh(rank, len);
      piece.push_back(local(rank, OpType::Copy, from, s, len));
      from = s;
    }
    piece.push_back(local(rank, OpType::Copy, from, to, len));
  }

  void path(Piece& piece, int32_t q, Loc from, int32_t len, const std::vector<Target>& targets,
            std::optional<Action> head) {
    struct Hop {
      int32_t rank;
      std::optional<Loc> keep;  // nullopt: a relay
    };
    std::vector<Hop> hops;
    int32_t prev = q;
    for (const Target& t : targets) {
      if (shape_.ranks > 2 && rng_.chance(15)) {
        int32_t relay = rng_.below(static_cast<size_t>(shape_.ranks));
        if (relay != prev && relay != t.rank) hops.push_back({relay, std::nullopt});
      }
      hops.push_back({t.rank, t.loc});
      prev = t.rank;
    }
    Action chain;
    if (head) {
      chain = std::move(*head);
    } else {
      if (rng_.chance(15)) {
        const Loc s = fresh(q, len);
        piece.push_back(local(q, OpType::Copy, from, s, len));
        from = s;
      }
      chain = startChain(step(q, OpType::Send, from, Loc{}, len));
    }
    std::vector<Action> after;  // local copies that follow the chain
    auto close = [&] {
      piece.push_back(std::move(chain));
      for (Action& a : after) piece.push_back(std::move(a));
      after.clear();
    };
    for (size_t i = 0; i < hops.size(); ++i) {
      const Hop& hop = hops[i];
      const Loc keep = hop.keep ? *hop.keep : fresh(hop.rank, len);
      if (i + 1 == hops.size()) {
        if (rng_.chance(20)) {
          const Loc s = fresh(hop.rank, len);
          receive(chain, hop.rank, OpType::Recv, Loc{}, s);
          after.push_back(local(hop.rank, OpType::Copy, s, keep, len));
        } else {
          receive(chain, hop.rank, OpType::Recv, Loc{}, keep);
        }
        close();
      } else if (rng_.chance(60)) {
        Loc store = keep;
        if (hop.keep && rng_.chance(20)) {
          store = fresh(hop.rank, len);
          after.push_back(local(hop.rank, OpType::Copy, store, keep, len));
        }
        receive(chain, hop.rank, OpType::RecvCopySend, Loc{}, store);
      } else {
        receive(chain, hop.rank, OpType::Recv, Loc{}, keep);
        close();
        chain = startChain(step(hop.rank, OpType::Send, keep, Loc{}, len));
      }
    }
  }

  struct Tree {
    std::vector<std::vector<int32_t>> children;
  };

  Tree randomTree(int32_t root) {
    Tree t;
    t.children.resize(static_cast<size_t>(shape_.ranks));
    const size_t fanIn = static_cast<size_t>(rng_.between(1, 3));
    std::vector<int32_t> attached{root}, others;
    for (int32_t r = 0; r < shape_.ranks; ++r)
      if (r != root) others.push_back(r);
    rng_.shuffle(others);
    for (int32_t u : others) {
      std::vector<int32_t> open;
      for (int32_t a : attached)
        if (t.children[static_cast<size_t>(a)].size() < fanIn) open.push_back(a);
      const int32_t p = open[static_cast<size_t>(rng_.below(open.size()))];
      t.children[static_cast<size_t>(p)].push_back(u);
      attached.push_back(u);
    }
    return t;
  }

  // The sum over every rank of input chunks [g, g+len) into `final` on the collector c (along a
  // random reduction tree), then to `resultTargets`.
  Piece reduction(int32_t c, int32_t g, int32_t len, Loc final, std::vector<Target> resultTargets) {
    Piece piece;
    const Tree tree = randomTree(c);
    const std::vector<int32_t>& kids = tree.children[static_cast<size_t>(c)];
    std::vector<Action> incoming;
    for (int32_t v : kids) incoming.push_back(subtree(piece, tree, v, g, len));
    const Loc in{Buffer::Input, g};
    const int32_t style = rng_.below(resultTargets.empty() ? 2 : 3);
    if (style == 0) {
      accumulate(piece, c, in, len, incoming, kids.size(), final);
      if (!resultTargets.empty()) append(piece, multicast(c, final, len, resultTargets));
      return piece;
    }
    const Loc acc = accumulate(piece, c, in, len, incoming, kids.size() - 1, std::nullopt);
    Action last = std::move(incoming.back());
    if (style == 1) {
      receive(last, c, OpType::RecvReduceCopy, acc, final);
      piece.push_back(std::move(last));
      if (!resultTargets.empty()) append(piece, multicast(c, final, len, resultTargets));
    } else {
      receive(last, c, OpType::RecvReduceCopySend, acc, final);
      append(piece, multicast(c, final, len, resultTargets, std::move(last)));
    }
    return piece;
  }

  // The chain that carries the sum over u's subtree towards u's parent (its last step sends).
  Action subtree(Piece& piece, const Tree& tree, int32_t u, int32_t g, int32_t len) {
    const Loc in{Buffer::Input, g};
    const std::vector<int32_t>& kids = tree.children[static_cast<size_t>(u)];
    if (kids.empty()) {
      Loc from = in;
      if (rng_.chance(15)) {
        from = fresh(u, len);
        piece.push_back(local(u, OpType::Copy, in, from, len));
      }
      return startChain(step(u, OpType::Send, from, Loc{}, len));
    }
    std::vector<Action> incoming;
    for (int32_t v : kids) incoming.push_back(subtree(piece, tree, v, g, len));
    const int32_t style = rng_.below(4);
    if (style == 0) {  // everything received, summed locally, sent on
      const Loc acc = accumulate(piece, u, in, len, incoming, kids.size(), std::nullopt);
      return startChain(step(u, OpType::Send, acc, Loc{}, len));
    }
    const Loc acc = accumulate(piece, u, in, len, incoming, kids.size() - 1, std::nullopt);
    Action last = std::move(incoming.back());
    if (style == 1 || style == 2) {  // the last child's partial sum passes through, reduced
      receive(last, u, OpType::RecvReduceSend, acc, Loc{});
      return last;
    }
    const Loc s = fresh(u, len);  // reduced and kept, then sent (or kept and forwarded at once)
    if (rng_.chance(50)) {
      receive(last, u, OpType::RecvReduceCopy, acc, s);
      piece.push_back(std::move(last));
      return startChain(step(u, OpType::Send, s, Loc{}, len));
    }
    receive(last, u, OpType::RecvReduceCopySend, acc, s);
    return last;
  }

  // Receives the first `count` incoming chains into scratch and adds them to u's input: returns
  // where the sum is (`final` when given; u's input itself when count is 0 and no final is given).
  Loc accumulate(Piece& piece, int32_t u, Loc in, int32_t len, std::vector<Action>& incoming, size_t count,
                 std::optional<Loc> final) {
    if (count == 0) {
      if (!final) return in;
      if (!sameMemory(u, in, *final)) copy(piece, u, in, *final, len);
      return *final;
    }
    std::vector<Loc> slots;
    for (size_t j = 0; j < count; ++j) {
      slots.push_back(fresh(u, len));
      receive(incoming[j], u, OpType::Recv, Loc{}, slots.back());
      piece.push_back(std::move(incoming[j]));
    }
    rng_.shuffle(slots);
    Action sum{{}, 0};
    Loc acc;
    if (rng_.chance(60)) {  // the input first, then one fused chain of the received sums
      acc = final && rng_.chance(70) ? *final : fresh(u, len);
      if (!sameMemory(u, in, acc)) {
        if (rng_.chance(50))
          sum.steps.push_back(step(u, OpType::Copy, in, acc, len));
        else
          piece.push_back(local(u, OpType::Copy, in, acc, len));
      }
      for (const Loc& s : slots) sum.steps.push_back(step(u, OpType::Reduce, s, acc, len));
    } else {  // a fused chain into the first slot, then the input (another source buffer: a new chain)
      acc = slots.front();
      for (size_t j = 1; j < slots.size(); ++j) sum.steps.push_back(step(u, OpType::Reduce, slots[j], acc, len));
      sum.steps.push_back(step(u, OpType::Reduce, in, acc, len));
    }
    splitReduction(sum);
    piece.push_back(std::move(sum));
    if (final && (acc.buf != final->buf || acc.off != final->off)) {
      piece.push_back(local(u, OpType::Copy, acc, *final, len));
      acc = *final;
    }
    return acc;
  }

  // Sometimes splits a reduction that follows another into the same place in two (cnt k, then
  // the rest): it must not fuse with the one before, whose cnt differs, so that one ends its chain
  // with hasdep=1, as the executor's parser reads it (issue 11: a runtime that fused across it got
  // half of the output wrong).
  void splitReduction(Action& sum) {
    std::vector<size_t> candidates;
    for (size_t j = 1; j < sum.steps.size(); ++j)
      if (sum.steps[j].type == OpType::Reduce && sum.steps[j - 1].type == OpType::Reduce && sum.steps[j].cnt >= 2)
        candidates.push_back(j);
    if (candidates.empty() || !rng_.chance(40)) return;
    const size_t j = candidates[static_cast<size_t>(rng_.below(candidates.size()))];
    PlannedStep first = sum.steps[j], rest = sum.steps[j];
    first.cnt = rng_.between(1, first.cnt - 1);
    rest.cnt -= first.cnt;
    rest.src.off += first.cnt;
    rest.dst.off += first.cnt;
    sum.steps[j - 1].hasdep = true;
    sum.steps[j] = first;
    sum.steps.insert(sum.steps.begin() + static_cast<std::ptrdiff_t>(j) + 1, rest);
  }

  static void append(Piece& piece, Piece more) {
    for (Action& a : more) piece.push_back(std::move(a));
  }

  Rng& rng_;
  const Shape& shape_;
  semantics::Collective collective_;
  std::vector<int32_t> scratch_;
};

// Places the planned actions on thread blocks in the global order and adds the dependencies.
class Assembler {
 public:
  Assembler(Rng& rng, const Shape& shape)
      : rng_(rng), shape_(shape), collective_(collectiveOf(shape)), ranks_(static_cast<size_t>(shape.ranks)) {}

  // False when the program does not fit 4 thread blocks per rank and 8 steps per block.
  bool place(const std::vector<Action>& order) {
    for (const Action& a : order) {
      const bool together = a.steps.size() > 1 && a.steps.front().recvPeer < 0 && a.steps.front().sendPeer < 0;
      if (together) {
        const int32_t tb = chooseTb(a.steps.front().rank, -1, -1, 0);
        if (tb < 0 || !add(a.steps, tb)) return false;
        continue;
      }
      for (const PlannedStep& s : a.steps) {
        const int32_t tb = chooseTb(s.rank, s.sendPeer, s.recvPeer, a.channel);
        if (tb < 0 || !add({s}, tb)) return false;
      }
    }
    return true;
  }

  ir::Algorithm algorithm(const std::vector<int32_t>& scratch) {
    ir::Algorithm a;
    a.proto = shape_.protocol;
    a.nchannels = shape_.channels;
    a.nchunksperloop = shape_.chunks;
    a.ngpus = shape_.ranks;
    a.coll = irKindOf(shape_.type);
    a.collName = std::string(ir::collectiveName(a.coll));
    for (int32_t r = 0; r < shape_.ranks; ++r) {
      ir::Gpu g;
      g.id = r;
      g.inputChunks = collective_.inputChunks();
      g.outputChunks = collective_.outputChunks();
      g.scratchChunks = scratch[static_cast<size_t>(r)] + (rng_.chance(10) ? 1 : 0);
      for (const Tb& t : ranks_[static_cast<size_t>(r)].tbs) {
        ir::ThreadBlock tb;
        tb.id = static_cast<int32_t>(g.threadBlocks.size());
        tb.send = t.send;
        tb.recv = t.recv;
        tb.chan = t.chan;
        tb.steps = t.steps;
        g.threadBlocks.push_back(std::move(tb));
      }
      a.gpus.push_back(std::move(g));
    }
    return a;
  }

 private:
  struct Tb {
    int32_t send = -1, recv = -1, chan = 0;
    std::vector<ir::Step> steps;
    std::array<int32_t, kMaxTbsPerRank> clock{-1, -1, -1, -1};  // last step of each block known to precede the end
  };
  struct Done {
    int32_t tb, index;
    std::vector<Access> accesses;
    std::array<int32_t, kMaxTbsPerRank> clock;
  };
  struct Rank {
    std::vector<Tb> tbs;
    std::map<std::pair<int32_t, int32_t>, int32_t> sender, receiver;  // (peer, channel) -> tb
    std::vector<Done> done;
  };

  bool canUse(const Rank& r, int32_t t, int32_t send, int32_t recv, int32_t chan) const {
    const Tb& tb = r.tbs[static_cast<size_t>(t)];
    const bool hasPeer = tb.send >= 0 || tb.recv >= 0;
    if ((send >= 0 || recv >= 0) && hasPeer && tb.chan != chan) return false;
    auto sideFits = [&](const std::map<std::pair<int32_t, int32_t>, int32_t>& owners, int32_t peer, int32_t mine) {
      if (peer < 0) return true;
      auto it = owners.find({peer, chan});
      return it != owners.end() ? it->second == t : mine < 0;
    };
    return sideFits(r.sender, send, tb.send) && sideFits(r.receiver, recv, tb.recv);
  }

  int32_t chooseTb(int32_t rank, int32_t send, int32_t recv, int32_t chan) {
    Rank& r = ranks_[static_cast<size_t>(rank)];
    std::vector<int32_t> fit;
    for (int32_t t = 0; t < static_cast<int32_t>(r.tbs.size()); ++t)
      if (canUse(r, t, send, recv, chan)) fit.push_back(t);
    const bool owned = (send >= 0 && r.sender.count({send, chan})) || (recv >= 0 && r.receiver.count({recv, chan}));
    const bool room = static_cast<int32_t>(r.tbs.size()) < kMaxTbsPerRank && !owned;
    int32_t t;
    if (room && (fit.empty() || rng_.chance(25))) {
      t = static_cast<int32_t>(r.tbs.size());
      r.tbs.push_back(Tb{});
      r.tbs.back().chan = rng_.below(static_cast<size_t>(shape_.channels));
    } else if (!fit.empty()) {
      t = fit[static_cast<size_t>(rng_.below(fit.size()))];
    } else {
      return -1;
    }
    Tb& tb = r.tbs[static_cast<size_t>(t)];
    if (send >= 0 || recv >= 0) tb.chan = chan;
    if (send >= 0) {
      tb.send = send;
      r.sender[{send, chan}] = t;
    }
    if (recv >= 0) {
      tb.recv = recv;
      r.receiver[{recv, chan}] = t;
    }
    return t;
  }

  std::vector<Access> accessesOf(const PlannedStep& s) const {
    std::vector<Access> out;
    for (semantics::CallForm f : shape_.forms) {
      const semantics::RankLayout l = collective_.layout(s.rank, f, 0);
      auto add = [&](Loc loc, bool writes) {
        const semantics::BufferView& v = l.view(loc.buf);
        out.push_back({f, v.region, v.base + loc.off, v.base + loc.off + s.cnt, writes});
      };
      if (semantics::readsLocalSource(s.type)) add(s.src, false);
      if (semantics::readsLocalDestination(s.type)) add(s.dst, false);
      if (semantics::writesLocalDestination(s.type)) add(s.dst, true);
    }
    return out;
  }

  static bool conflict(const std::vector<Access>& a, const std::vector<Access>& b) {
    for (const Access& x : a)
      for (const Access& y : b)
        if (x.form == y.form && x.region == y.region && x.begin < y.end && y.begin < x.end && (x.writes || y.writes))
          return true;
    return false;
  }

  // Appends steps to block t of their rank, ordered after every conflicting step of the rank's
  // other blocks: the waits go on the first step (and on nops before it), so the steps stay together.
  bool add(const std::vector<PlannedStep>& steps, int32_t t) {
    Rank& r = ranks_[static_cast<size_t>(steps.front().rank)];
    Tb& tb = r.tbs[static_cast<size_t>(t)];
    std::vector<std::vector<Access>> accesses;
    std::array<int32_t, kMaxTbsPerRank> need{-1, -1, -1, -1};
    for (const PlannedStep& s : steps) {
      accesses.push_back(accessesOf(s));
      for (const Done& d : r.done)
        if (d.tb != t && conflict(accesses.back(), d.accesses))
          need[static_cast<size_t>(d.tb)] = std::max(need[static_cast<size_t>(d.tb)], d.index);
    }
    std::vector<std::pair<int32_t, int32_t>> waits;
    for (int32_t o = 0; o < kMaxTbsPerRank; ++o) {
      const size_t i = static_cast<size_t>(o);
      if (need[i] > tb.clock[i])
        waits.emplace_back(o, need[i]);
      else if (o != t && tb.clock[i] >= 0 && rng_.chance(3))
        waits.emplace_back(o, rng_.between(0, tb.clock[i]));  // redundant
    }
    rng_.shuffle(waits);
    for (size_t w = 0; w < waits.size(); ++w) {
      const auto [o, index] = waits[w];
      Tb& other = r.tbs[static_cast<size_t>(o)];
      other.steps[static_cast<size_t>(index)].hasdep = true;
      for (const Done& d : r.done)
        if (d.tb == o && d.index == index)
          for (size_t i = 0; i < kMaxTbsPerRank; ++i) tb.clock[i] = std::max(tb.clock[i], d.clock[i]);
      tb.clock[static_cast<size_t>(o)] = std::max(tb.clock[static_cast<size_t>(o)], index);
      if (w + 1 < waits.size()) {
        ir::Step nop;
        nop.type = OpType::Nop;
        nop.depid = o;
        nop.deps = index;
        nop.s = static_cast<int32_t>(tb.steps.size());
        tb.steps.push_back(nop);
      }
    }
    for (size_t i = 0; i < steps.size(); ++i) {
      const PlannedStep& s = steps[i];
      ir::Step st;
      st.s = static_cast<int32_t>(tb.steps.size());
      st.type = s.type;
      st.cnt = s.cnt;
      const bool src = semantics::readsLocalSource(s.type), dst = semantics::writesLocalDestination(s.type);
      const Loc unused = rng_.chance(50) ? Loc{Buffer::Input, -1} : (src ? s.src : s.dst);
      st.srcbuf = (src ? s.src : unused).buf;
      st.srcoff = (src ? s.src : unused).off;
      st.dstbuf = (dst ? s.dst : unused).buf;
      st.dstoff = (dst ? s.dst : unused).off;
      if (i == 0 && !waits.empty()) {
        st.depid = waits.back().first;
        st.deps = waits.back().second;
      }
      st.hasdep = s.hasdep || rng_.chance(5);
      tb.steps.push_back(st);
      tb.clock[static_cast<size_t>(t)] = st.s;
      r.done.push_back(Done{t, st.s, accesses[i], tb.clock});
    }
    return static_cast<int32_t>(tb.steps.size()) <= kMaxStepsPerTb;
  }

  Rng& rng_;
  const Shape& shape_;
  semantics::Collective collective_;
  std::vector<Rank> ranks_;
};

Shape randomShape(Rng& rng) {
  static constexpr std::array<semantics::CollectiveType, 8> kTypes{
      semantics::CollectiveType::AllReduce,     semantics::CollectiveType::AllGather,
      semantics::CollectiveType::ReduceScatter, semantics::CollectiveType::AllToAll,
      semantics::CollectiveType::Broadcast,     semantics::CollectiveType::Reduce,
      semantics::CollectiveType::Gather,        semantics::CollectiveType::Scatter};
  Shape s;
  s.type = kTypes[static_cast<size_t>(rng.below(kTypes.size()))];
  s.ranks = rng.between(2, 5);
  const bool shards = s.type == semantics::CollectiveType::AllGather ||
                      s.type == semantics::CollectiveType::ReduceScatter ||
                      s.type == semantics::CollectiveType::AllToAll || s.type == semantics::CollectiveType::Gather ||
                      s.type == semantics::CollectiveType::Scatter;
  const int32_t perRank = s.type == semantics::CollectiveType::AllToAll && s.ranks > 3 ? 1 : rng.between(1, 2);
  s.chunks = shards ? s.ranks * perRank : rng.between(1, 3);
  s.root = isRooted(s.type) ? rng.below(static_cast<size_t>(s.ranks)) : 0;
  s.channels = rng.between(1, 2);
  s.protocol = rng.chance(50) ? ir::Protocol::Simple : rng.chance(50) ? ir::Protocol::LL : ir::Protocol::LL128;
  switch (rng.below(3)) {
    case 0: s.forms = {semantics::CallForm::InPlace}; break;
    case 1: s.forms = {semantics::CallForm::OutOfPlace}; break;
    default: s.forms = {semantics::CallForm::InPlace, semantics::CallForm::OutOfPlace}; break;
  }
  return s;
}

// A collective given as data, out of place: each output chunk is unconstrained, a copy of one input
// chunk of any rank, or the sum of one input index over all ranks.
Shape randomCustomShape(Rng& rng) {
  Shape s;
  s.type = semantics::CollectiveType::Custom;
  s.ranks = rng.between(2, 4);
  semantics::CustomCollectiveSpec spec;
  spec.name = "property-custom";
  spec.ranks = s.ranks;
  spec.inputChunks = rng.between(1, 3);
  spec.outputChunks = rng.between(1, 3);
  for (int32_t r = 0; r < s.ranks; ++r)
    for (int32_t k = 0; k < spec.outputChunks; ++k) {
      const int32_t kind = rng.below(4);
      if (kind == 0) continue;
      semantics::ChunkMapEntry e{r, k, {}};
      const int32_t index = rng.below(static_cast<size_t>(spec.inputChunks));
      if (kind == 3)
        for (int32_t q = 0; q < s.ranks; ++q) e.value.push_back(semantics::Atom{q, index});
      else
        e.value.push_back(semantics::Atom{rng.below(static_cast<size_t>(s.ranks)), index});
      spec.post.push_back(std::move(e));
    }
  if (spec.post.empty()) spec.post.push_back(semantics::ChunkMapEntry{0, 0, {semantics::Atom{s.ranks - 1, 0}}});
  s.chunks = std::max(spec.inputChunks, spec.outputChunks);
  s.channels = rng.between(1, 2);
  s.protocol = rng.chance(50) ? ir::Protocol::Simple : ir::Protocol::LL;
  s.forms = {semantics::CallForm::OutOfPlace};
  s.custom = std::move(spec);
  return s;
}

}  // namespace

GeneratedProgram generateProgram(uint64_t seed) { return generateProgram(seed, GeneratorOptions{}); }

GeneratedProgram generateProgram(uint64_t seed, const GeneratorOptions& options) {
  Rng rng(seed);
  GeneratedProgram out;
  Shape shape;
  for (int32_t attempt = 0;; ++attempt) {
    if (attempt % kAttemptsPerShape == 0)  // some shapes rarely fit the limits
    {
      shape = options.customCollectives ? randomCustomShape(rng) : randomShape(rng);
      // Fused programs are out of place, and compute on every rank: not broadcast or scatter, whose
      // non-root ranks may not touch their input (buffers.root-only).
      while (options.fusedPrograms &&
             (shape.type == semantics::CollectiveType::Broadcast || shape.type == semantics::CollectiveType::Scatter))
        shape = randomShape(rng);
      if (options.fusedPrograms) shape.forms = {semantics::CallForm::OutOfPlace};
    }
    Planner planner(rng, shape);
    const std::vector<Action> order = planner.plan();
    Assembler assembler(rng, shape);
    if (!assembler.place(order)) continue;
    out.algorithm = assembler.algorithm(planner.scratchChunks());
    out.collective = shape.type;
    out.root = shape.root;
    const bool inPlace =
        std::find(shape.forms.begin(), shape.forms.end(), semantics::CallForm::InPlace) != shape.forms.end();
    out.algorithm.name = "property-" + std::to_string(seed);
    out.algorithm.inplace = inPlace;
    out.algorithm.outofplace =
        std::find(shape.forms.begin(), shape.forms.end(), semantics::CallForm::OutOfPlace) != shape.forms.end();
    out.algorithm.minBytes = 0;
    out.algorithm.maxBytes = 0;
    out.custom = shape.custom;
    if (options.fusedPrograms) {
      makeFused(out.algorithm);
      out.mutations.push_back("fused");
    }
    break;
  }
  if (rng.chance(50)) {
    const int32_t count = rng.chance(70) ? 1 : 2;
    for (int32_t i = 0; i < count; ++i) out.mutations.push_back(mutate(rng, out.algorithm));
  }
  rng.shuffle(out.algorithm.gpus);
  if (rng.chance(25))
    for (ir::Gpu& g : out.algorithm.gpus) rng.shuffle(g.threadBlocks);
  return out;
}

}  // namespace ccforge::property
