#include "codegen/connection_graph.hpp"

namespace ccforge::codegen {
namespace {

uint64_t connectionKey(int32_t rank, int32_t channel, Direction dir, int32_t peer) {
  return (static_cast<uint64_t>(rank) << 40) | (static_cast<uint64_t>(channel) << 33) |
         (static_cast<uint64_t>(dir) << 32) | static_cast<uint32_t>(peer);
}
uint64_t labelKey(int32_t rank, int32_t label, int32_t replica) {
  return (uint64_t{1} << 63) | (static_cast<uint64_t>(rank) << 42) | (static_cast<uint64_t>(replica) << 31) |
         static_cast<uint32_t>(label);
}

std::string describe(const Group& g) {
  return "thread block (send " + std::to_string(g.sendPeer) + ", recv " + std::to_string(g.recvPeer) + ", channel " +
         std::to_string(g.channel) + (g.label >= 0 ? ", label " + std::to_string(g.label) : "") + ")";
}

}  // namespace

ConnectionGraph::ConnectionGraph(int32_t ranks, const semantics::RuntimeProfile& target)
    : target_(target),
      peers_(static_cast<size_t>(ranks) * static_cast<size_t>(target.maxChannels) * 2, 0),
      rankConnections_(static_cast<size_t>(ranks) * 2, 0),
      maxThreadBlocks_(residentThreadBlocksPerRank(target)) {}

size_t ConnectionGraph::peerSlot(int32_t rank, int32_t channel, Direction dir) const {
  return (static_cast<size_t>(rank) * static_cast<size_t>(target_.maxChannels) + static_cast<size_t>(channel)) * 2 +
         static_cast<size_t>(dir);
}

int32_t ConnectionGraph::create(uint64_t key, const NodeInfo& info, const Group& g) {
  const auto id = static_cast<int32_t>(nodes_.size());
  nodes_.push_back(Node{id, 1, g});
  info_.push_back(info);
  owner_.push_back(kOpen);
  index_.emplace(key, id);
  if (trial_) createdKeys_.push_back(key);
  return id;
}

int32_t ConnectionGraph::findConnection(int32_t rank, int32_t channel, Direction dir, int32_t peer) const {
  auto it = index_.find(connectionKey(rank, channel, dir, peer));
  return it == index_.end() ? -1 : it->second;
}

int32_t ConnectionGraph::connection(int32_t rank, int32_t channel, Direction dir, int32_t peer, int32_t owner) {
  const uint64_t key = connectionKey(rank, channel, dir, peer);
  if (auto it = index_.find(key); it != index_.end()) {
    const bool ownTrial = trial_ && static_cast<size_t>(it->second) >= nodesAtBegin_;  // the same chain
    if (ownTrial || owner == owner_[static_cast<size_t>(it->second)]) return it->second;
    failure_.kind = Failure::Kind::Exclusive;
    failure_.a = Group{rank, -1, -1, channel, -1, 0};
    failure_.dir = dir;
    failure_.limit = peer;
    return -1;
  }
  const size_t slot = peerSlot(rank, channel, dir);
  if (peers_[slot] >= target_.maxPeersPerChannel) {
    failure_.kind = Failure::Kind::PeersFull;
    failure_.a = Group{rank, -1, -1, channel, -1, 0};
    failure_.dir = dir;
    failure_.limit = target_.maxPeersPerChannel;
    return -1;
  }
  const size_t rankSlot = static_cast<size_t>(rank) * 2 + static_cast<size_t>(dir);
  if (rankConnections_[rankSlot] >= maxThreadBlocks_) {
    failure_.kind = Failure::Kind::RankFull;
    failure_.a = Group{rank, -1, -1, channel, -1, 0};
    failure_.dir = dir;
    failure_.limit = maxThreadBlocks_;
    return -1;
  }
  ++peers_[slot];
  ++rankConnections_[rankSlot];
  if (trial_) {
    peerBumps_.push_back(slot);
    rankBumps_.push_back(rankSlot);
  }
  Group g;
  g.rank = rank;
  g.channel = channel;
  (dir == Direction::Send ? g.sendPeer : g.recvPeer) = peer;
  const int32_t id = create(key, NodeInfo{false, dir, rank, channel, peer}, g);
  owner_[static_cast<size_t>(id)] = owner;
  return id;
}

int32_t ConnectionGraph::label(int32_t rank, int32_t label, int32_t replica) {
  const uint64_t key = labelKey(rank, label, replica);
  if (auto it = index_.find(key); it != index_.end()) return it->second;
  Group g;
  g.rank = rank;
  g.label = label;
  return create(key, NodeInfo{true, Direction::Send, rank, -1, label}, g);
}

int32_t ConnectionGraph::find(int32_t node) const {
  while (nodes_[static_cast<size_t>(node)].parent != node) node = nodes_[static_cast<size_t>(node)].parent;
  return node;
}

void ConnectionGraph::save(int32_t node) {
  if (trial_ && static_cast<size_t>(node) < nodesAtBegin_) saved_.emplace_back(node, nodes_[static_cast<size_t>(node)]);
}

bool ConnectionGraph::attach(int32_t node, int32_t cap) {
  const int32_t root = find(node);
  Group& g = nodes_[static_cast<size_t>(root)].group;
  if (cap > 0 && g.ops + 1 > cap) {
    failure_.kind = Failure::Kind::GroupFull;
    failure_.a = g;
    failure_.limit = cap;
    return false;
  }
  save(root);
  ++g.ops;
  return true;
}

bool ConnectionGraph::unite(int32_t a, int32_t b, int32_t cap) {
  int32_t ra = find(a), rb = find(b);
  if (ra == rb) return true;
  const Group& ga = nodes_[static_cast<size_t>(ra)].group;
  const Group& gb = nodes_[static_cast<size_t>(rb)].group;
  // Distinct groups never share a connection, so two send (or receive) peers always differ.
  const char* why = nullptr;
  if (ga.sendPeer >= 0 && gb.sendPeer >= 0)
    why = "two send peers";
  else if (ga.recvPeer >= 0 && gb.recvPeer >= 0)
    why = "two receive peers";
  else if (ga.channel >= 0 && gb.channel >= 0 && ga.channel != gb.channel)
    why = "two channels";
  else if (ga.label >= 0 && gb.label >= 0)
    why = "two thread block labels";
  else if (cap > 0 && ga.ops + gb.ops > cap)
    why = "more steps than allowed";
  if (why) {
    failure_.kind = Failure::Kind::Clash;
    failure_.a = ga;
    failure_.b = gb;
    failure_.limit = cap;
    failure_.why = why;
    return false;
  }
  if (nodes_[static_cast<size_t>(ra)].size < nodes_[static_cast<size_t>(rb)].size) std::swap(ra, rb);
  save(ra);
  save(rb);
  Node& big = nodes_[static_cast<size_t>(ra)];
  const Group& small = nodes_[static_cast<size_t>(rb)].group;
  big.size += nodes_[static_cast<size_t>(rb)].size;
  if (big.group.sendPeer < 0) big.group.sendPeer = small.sendPeer;
  if (big.group.recvPeer < 0) big.group.recvPeer = small.recvPeer;
  if (big.group.channel < 0) big.group.channel = small.channel;
  if (big.group.label < 0) big.group.label = small.label;
  big.group.ops += small.ops;
  nodes_[static_cast<size_t>(rb)].parent = ra;
  return true;
}

std::string ConnectionGraph::failure() const {
  const Failure& f = failure_;
  switch (f.kind) {
    case Failure::Kind::None: return "";
    case Failure::Kind::PeersFull:
      return "rank " + std::to_string(f.a.rank) + " already has " + std::to_string(f.limit) + " thread blocks that " +
             (f.dir == Direction::Send ? "send" : "receive") + " on channel " + std::to_string(f.a.channel) +
             ", the most the runtime allows";
    case Failure::Kind::RankFull:
      return "rank " + std::to_string(f.a.rank) + " already has " + std::to_string(f.limit) + " thread blocks that " +
             (f.dir == Direction::Send ? "send" : "receive") + ", one per peer and channel; " + target_.name +
             " allows " + std::to_string(f.limit) +
             " per rank (all of a rank's thread blocks must be resident at once)";
    case Failure::Kind::GroupFull:
      return "on rank " + std::to_string(f.a.rank) + ", " + describe(f.a) + " already has " + std::to_string(f.limit) +
             " steps";
    case Failure::Kind::Exclusive:
      return "the connection of rank " + std::to_string(f.a.rank) + (f.dir == Direction::Send ? " to" : " from") +
             " rank " + std::to_string(f.limit) + " on channel " + std::to_string(f.a.channel) +
             " is kept for other transfers (a chain isolated from the others)";
    case Failure::Kind::Clash:
      return "on rank " + std::to_string(f.a.rank) + ", " + describe(f.a) + " and " + describe(f.b) +
             " would have to be one thread block with " + f.why;
  }
  return "";
}

void ConnectionGraph::begin() {
  trial_ = true;
  nodesAtBegin_ = nodes_.size();
}

void ConnectionGraph::commit() {
  trial_ = false;
  saved_.clear();
  createdKeys_.clear();
  peerBumps_.clear();
  rankBumps_.clear();
}

void ConnectionGraph::rollback() {
  for (auto it = saved_.rbegin(); it != saved_.rend(); ++it) nodes_[static_cast<size_t>(it->first)] = it->second;
  for (uint64_t key : createdKeys_) index_.erase(key);
  for (size_t slot : peerBumps_) --peers_[slot];
  for (size_t slot : rankBumps_) --rankConnections_[slot];
  nodes_.resize(nodesAtBegin_);
  info_.resize(nodesAtBegin_);
  owner_.resize(nodesAtBegin_);
  commit();
}

}  // namespace ccforge::codegen
