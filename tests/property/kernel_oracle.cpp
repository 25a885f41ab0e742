#include <algorithm>
#include <array>
#include <deque>
#include <map>
#include <tuple>

#include "kernel_oracle_program.hpp"

namespace ccforge::property::oracle {
namespace {

// Atoms: input chunk (rank, index) >= 0; uninitialised memory (rank, region, chunk) < 0.
int64_t inputAtom(int32_t rank, int32_t index) { return (int64_t{rank} << 20) | index; }
int64_t uninitialisedAtom(int32_t rank, int32_t region, int32_t chunk) {
  return -1 - ((int64_t{rank} << 24) | (int64_t{region} << 20) | chunk);
}
Value sum(const Value& a, const Value& b) {
  Value out;
  out.reserve(a.size() + b.size());
  std::merge(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(out));
  return out;
}
Value sumOf(const std::vector<Source>& sources) {
  Value v;
  for (const auto& [rank, index] : sources) v.push_back(inputAtom(rank, index));
  std::sort(v.begin(), v.end());
  return v;
}

struct View {
  int32_t region = 0, base = 0, length = 0;
};

// One call: memory, connections and the blocks' progress.
class Machine {
 public:
  Machine(const OracleProgram& program, const Postcondition& post, bool inPlace, const Configuration& c)
      : program_(program), post_(post), config_(c) {
    for (const Rank& r : program.ranks) {
      std::array<View, 4> views{};
      std::vector<int32_t> sizes;
      if (inPlace) {
        const int32_t base = std::max(post.inPlaceInputBase[static_cast<size_t>(r.id)] + post.inputChunks,
                                      post.inPlaceOutputBase[static_cast<size_t>(r.id)] + post.outputChunks);
        views[In] = {0, post.inPlaceInputBase[static_cast<size_t>(r.id)], post.inputChunks};
        views[Out] = {0, post.inPlaceOutputBase[static_cast<size_t>(r.id)], post.outputChunks};
        views[Scratch] = {1, 0, r.scratchChunks};
        sizes = {base, r.scratchChunks};
      } else {
        views[In] = {0, 0, post.inputChunks};
        views[Out] = {1, 0, post.outputChunks};
        views[Scratch] = {2, 0, r.scratchChunks};
        sizes = {post.inputChunks, post.outputChunks, r.scratchChunks};
      }
      views_.push_back(views);
      std::vector<std::vector<std::vector<Value>>> regions;  // [region][tile][chunk]
      for (size_t g = 0; g < sizes.size(); ++g) {
        std::vector<Value> chunks;
        for (int32_t k = 0; k < sizes[g]; ++k) chunks.push_back({uninitialisedAtom(r.id, static_cast<int32_t>(g), k)});
        regions.emplace_back(static_cast<size_t>(c.tiles), chunks);
      }
      if (!program.fused)
        for (int32_t k = 0; k < post.inputChunks; ++k)
          for (auto& tile : regions[static_cast<size_t>(views[In].region)])
            tile[static_cast<size_t>(views[In].base + k)] = {inputAtom(r.id, k)};
      memory_.push_back(std::move(regions));
      flags_.emplace_back();
      for (const Block& b : r.blocks) {
        flags_.back()[b.bid] = {-1, -1};
        blocks_.push_back(BlockState{&r, &b, c.tiles});
      }
    }
  }

  Outcome run() {
    Outcome out;
    for (;;) {
      bool progress = false, finished = true;
      for (BlockState& b : blocks_) {
        while (!b.done() && advance(b)) progress = true;
        finished = finished && b.done();
      }
      if (finished) break;
      if (!progress) {
        out.ending = Ending::Deadlock;
        for (const BlockState& b : blocks_)
          if (!b.done())
            out.detail += "rank " + std::to_string(b.rank->id) + " block " + std::to_string(b.block->bid) +
                          " waits at transmission " + std::to_string(b.transmission) + " of tile " +
                          std::to_string(b.tile) + "; ";
        return out;
      }
    }
    for (const auto& [key, fifo] : connections_) out.leftoverTransfers += static_cast<int32_t>(fifo.size());
    for (const Rank& r : program_.ranks) {
      const View& o = views_[static_cast<size_t>(r.id)][Out];
      for (int32_t k = 0; k < post_.outputChunks; ++k) {
        const std::optional<Value>& required = post_.output[static_cast<size_t>(r.id)][static_cast<size_t>(k)];
        if (!required) continue;
        for (int32_t tile = 0; tile < config_.tiles; ++tile)
          if (at(r.id, o, k, tile) != *required) out.wrongOutputs.insert({r.id, k});
      }
    }
    return out;
  }

 private:
  struct BlockState {
    const Rank* rank;
    const Block* block;
    int32_t tiles;
    int32_t tile = 0;
    size_t transmission = 0;
    int32_t offset = 0;  // chunks of the transmission done
    int32_t step = 0;    // the kernel's step counter in this tile iteration
    bool waited = false;
    bool done() const { return block->transmissions.empty() || tile >= tiles; }
  };
  struct Transfer {
    std::vector<Value> chunks;
  };
  using Connection = std::tuple<int32_t, int32_t, int32_t>;  // sender, receiver, channel

  Value& at(int32_t rank, const View& v, int32_t chunk, int32_t tile) {
    if (chunk < 0 || chunk >= v.length)
      throw Refusal("rank " + std::to_string(rank) + " touches chunk " + std::to_string(chunk) + " of a buffer of " +
                    std::to_string(v.length));
    return memory_[static_cast<size_t>(rank)][static_cast<size_t>(v.region)][static_cast<size_t>(tile)]
                  [static_cast<size_t>(v.base + chunk)];
  }
  const View& view(int32_t rank, int32_t buf) {
    if (buf == Operands) throw Refusal("a step other than cmp names the operands");
    return views_[static_cast<size_t>(rank)][static_cast<size_t>(buf)];
  }

  // One prims call, or the dependency wait before a transmission; false when it must wait.
  bool advance(BlockState& s) {
    const Transmission& t = s.block->transmissions[s.transmission];
    const int32_t me = s.rank->id;
    if (!s.waited) {
      for (const auto& [bid, step] : t.dependences) {
        const auto it = flags_[static_cast<size_t>(me)].find(bid);
        if (it == flags_[static_cast<size_t>(me)].end()) throw Refusal("a dependency on a block that does not exist");
        if (it->second < std::pair<int32_t, int32_t>{s.tile, step}) return false;
      }
      if (!t.dependences.empty()) s.step += static_cast<int32_t>(t.dependences.size()) - 1;
      s.waited = true;
    }
    if (s.offset < t.count) {
      const int32_t n = std::min(config_.maxAllowedCount, t.count - s.offset);
      const Connection out{me, s.block->sendPeer, s.block->channel}, in{s.block->recvPeer, me, s.block->channel};
      if (sends(t.kind) && static_cast<int32_t>(connections_[out].size()) >= config_.slots) return false;
      if (receives(t.kind) && connections_[in].empty()) return false;
      if (s.offset == 0 && t.kind == Kind::Reduce) s.step += static_cast<int32_t>(t.reductionSrcOffsets.size()) - 1;
      execute(s, t, n);
      s.offset += n;
      if (s.offset < t.count) return true;
    }
    if (t.hasDependence) flags_[static_cast<size_t>(me)][s.block->bid] = {s.tile, s.step};
    ++s.step;
    s.offset = 0;
    s.waited = false;
    if (++s.transmission == s.block->transmissions.size()) {
      s.transmission = 0;
      s.step = 0;
      ++s.tile;
    }
    return true;
  }

  void execute(BlockState& s, const Transmission& t, int32_t n) {
    const int32_t me = s.rank->id, tile = s.tile, first = s.offset;
    std::vector<Value> received;
    if (receives(t.kind)) {
      auto& fifo = connections_[{s.block->recvPeer, me, s.block->channel}];
      received = std::move(fifo.front().chunks);
      fifo.pop_front();
      if (static_cast<int32_t>(received.size()) != n)
        throw Refusal("a transfer of " + std::to_string(received.size()) + " chunks received as " + std::to_string(n));
    }
    auto source = [&](int32_t j) { return at(me, view(me, t.srcBuf), t.srcOff + first + j, tile); };
    std::vector<Value> result(static_cast<size_t>(n));
    for (int32_t j = 0; j < n; ++j) {
      Value& v = result[static_cast<size_t>(j)];
      switch (t.kind) {
        case Kind::Send:
        case Kind::Copy: v = source(j); break;
        case Kind::Recv:
        case Kind::RecvCopySend: v = received[static_cast<size_t>(j)]; break;
        case Kind::RecvReduceSend:
        case Kind::RecvReduceCopy:
        case Kind::RecvReduceCopySend: v = sum(received[static_cast<size_t>(j)], source(j)); break;
        case Kind::Reduce:
          v = at(me, view(me, t.dstBuf), t.dstOff + first + j, tile);
          for (int32_t off : t.reductionSrcOffsets) v = sum(v, at(me, view(me, t.srcBuf), off + first + j, tile));
          break;
        case Kind::Compute: v = {inputAtom(me, t.dstOff + first + j)}; break;
      }
    }
    if (sends(t.kind)) connections_[{me, s.block->sendPeer, s.block->channel}].push_back(Transfer{result});
    if (t.kind != Kind::Send && t.kind != Kind::RecvReduceSend)
      for (int32_t j = 0; j < n; ++j)
        at(me, view(me, t.dstBuf), t.dstOff + first + j, tile) = std::move(result[static_cast<size_t>(j)]);
  }

  const OracleProgram& program_;
  const Postcondition& post_;
  Configuration config_;
  std::vector<std::array<View, 4>> views_;
  std::vector<std::vector<std::vector<std::vector<Value>>>> memory_;   // [rank][region][tile][chunk]
  std::vector<std::map<int32_t, std::pair<int32_t, int32_t>>> flags_;  // [rank] bid -> (tile, step)
  std::vector<BlockState> blocks_;
  std::map<Connection, std::deque<Transfer>> connections_;
};

}  // namespace

int32_t protocolSlots(const std::string& proto) {
  constexpr int32_t kNcclSteps = 8;  // src/include/device.h:27
  return proto == "Simple" ? kNcclSteps / (kNcclSteps / 2) : kNcclSteps;
}

Postcondition standardPostcondition(const std::string& collective, int32_t ranks, int32_t chunks, int32_t root) {
  Postcondition p;
  p.ranks = ranks;
  const int32_t shard = chunks / ranks;
  const bool gathers = collective == "allgather" || collective == "gather";
  const bool scatters = collective == "reducescatter" || collective == "scatter";
  p.inputChunks = gathers ? shard : chunks;
  p.outputChunks = scatters ? shard : chunks;
  auto all = [&](int32_t index) {
    std::vector<Source> s;
    for (int32_t q = 0; q < ranks; ++q) s.emplace_back(q, index);
    return s;
  };
  for (int32_t r = 0; r < ranks; ++r) {
    // nccl.h: allgather in place when sendbuff == recvbuff + rank * sendcount, reducescatter when
    // recvbuff == sendbuff + rank * recvcount; gather and scatter follow them; the rest share one buffer.
    p.inPlaceInputBase.push_back(gathers ? r * shard : 0);
    p.inPlaceOutputBase.push_back(scatters ? r * shard : 0);
    std::vector<std::optional<Value>> out(static_cast<size_t>(p.outputChunks));
    for (int32_t k = 0; k < p.outputChunks; ++k) {
      std::optional<std::vector<Source>> s;
      if (collective == "allreduce") s = all(k);
      if (collective == "reduce" && r == root) s = all(k);
      if (collective == "reducescatter") s = all(r * shard + k);
      if (collective == "allgather" || (collective == "gather" && r == root))
        s = std::vector<Source>{{k / shard, k % shard}};
      if (collective == "alltoall") s = std::vector<Source>{{k / shard, r * shard + k % shard}};
      if (collective == "broadcast") s = std::vector<Source>{{root, k}};
      if (collective == "scatter") s = std::vector<Source>{{root, r * shard + k}};
      if (s) out[static_cast<size_t>(k)] = sumOf(*s);
    }
    p.output.push_back(std::move(out));
  }
  return p;
}

Postcondition customPostcondition(int32_t ranks, int32_t inputChunks, int32_t outputChunks,
                                  const std::vector<RequiredChunk>& required) {
  Postcondition p;
  p.ranks = ranks;
  p.inputChunks = inputChunks;
  p.outputChunks = outputChunks;
  p.servesInPlace = false;
  p.output.assign(static_cast<size_t>(ranks), std::vector<std::optional<Value>>(static_cast<size_t>(outputChunks)));
  for (const RequiredChunk& c : required)
    p.output[static_cast<size_t>(c.rank)][static_cast<size_t>(c.index)] = sumOf(c.sources);
  return p;
}

Outcome run(const OracleProgram& program, const Postcondition& post, bool inPlace, const Configuration& configuration) {
  try {
    if (post.ranks != program.ngpus) throw Refusal("the postcondition is for another rank count");
    return Machine(program, post, inPlace, configuration).run();
  } catch (const Refusal& e) {
    Outcome o;
    o.ending = Ending::Refused;
    o.detail = e.what();
    return o;
  }
}

}  // namespace ccforge::property::oracle
