// Which instructions must share a thread block. Nodes are connections (rank, channel,
// direction, peer) and the program's thread block labels; a group of united nodes becomes one
// thread block, so a group may hold at most one send peer, one receive peer, one channel and
// one label. Unions can be tried and rolled back, which is how channel assignment searches.
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "semantics/runtime_profile.hpp"

namespace ccforge::codegen {

enum class Direction : uint8_t { Send, Recv };

struct Group {
  int32_t rank = 0;
  int32_t sendPeer = -1;
  int32_t recvPeer = -1;
  int32_t channel = -1;
  int32_t label = -1;
  int32_t ops = 0;  // instructions placed in the group
};

class ConnectionGraph {
 public:
  ConnectionGraph(int32_t ranks, const semantics::RuntimeProfile& target);

  // Find or create. -1 when creating it would put more peers on the channel than allowed, give
  // the rank more connections in one direction than it may have thread blocks (each thread block
  // has one send and one receive peer, and all of a rank's must be resident), or when the
  // connection exists and belongs to another owner than this request's (kOpen: shared by all
  // unowned requests; an owner is a chain or a set of chains kept off other chains' connections).
  static constexpr int32_t kOpen = -1;
  int32_t connection(int32_t rank, int32_t channel, Direction dir, int32_t peer, int32_t owner = kOpen);
  int32_t findConnection(int32_t rank, int32_t channel, Direction dir, int32_t peer) const;
  int32_t label(int32_t rank, int32_t label, int32_t replica);
  // One more instruction in node's group; fails when the group would exceed `cap` (if cap > 0).
  bool attach(int32_t node, int32_t cap);
  // Fails when the groups cannot be one thread block (or together exceed `cap`, if cap > 0).
  bool unite(int32_t a, int32_t b, int32_t cap);
  int32_t find(int32_t node) const;
  const Group& group(int32_t node) const { return nodes_[static_cast<size_t>(find(node))].group; }
  // Why the last attach/unite/connection failed (formatted on demand: searches fail often).
  std::string failure() const;

  struct NodeInfo {
    bool isLabel = false;
    Direction dir = Direction::Send;
    int32_t rank = 0, channel = -1, peer = -1;
  };
  size_t size() const { return nodes_.size(); }
  const NodeInfo& info(int32_t node) const { return info_[static_cast<size_t>(node)]; }

  // Trial changes: begin, then commit or roll back everything since.
  void begin();
  void commit();
  void rollback();

 private:
  struct Node {
    int32_t parent = 0;
    int32_t size = 1;
    Group group;
  };
  int32_t create(uint64_t key, const NodeInfo& info, const Group& g);
  void save(int32_t node);
  size_t peerSlot(int32_t rank, int32_t channel, Direction dir) const;

  const semantics::RuntimeProfile& target_;
  std::vector<Node> nodes_;
  std::vector<NodeInfo> info_;
  std::vector<int32_t> owner_;
  std::unordered_map<uint64_t, int32_t> index_;  // lookups only, never iterated
  std::vector<int16_t> peers_;                   // connections per (rank, channel, direction)
  std::vector<int32_t> rankConnections_;         // connections per (rank, direction)
  int32_t maxThreadBlocks_;                      // per rank
  struct Failure {
    enum class Kind : uint8_t { None, PeersFull, RankFull, GroupFull, Clash, Exclusive } kind = Kind::None;
    Group a, b;
    Direction dir = Direction::Send;
    int32_t limit = 0;
    const char* why = "";
  } failure_;

  bool trial_ = false;
  std::vector<std::pair<int32_t, Node>> saved_;
  std::vector<uint64_t> createdKeys_;
  std::vector<size_t> peerBumps_;
  std::vector<size_t> rankBumps_;
  size_t nodesAtBegin_ = 0;
};

}  // namespace ccforge::codegen
