// A picture for Graphviz: nodes clustered per rank (and per thread block), edges of a few kinds,
// filters that cut large inputs down (one rank, one chunk, the neighbourhood of a node) and a
// node cap, since Graphviz's dot needs about 20 s for 4,000 nodes.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace ccforge::viz {

enum class DotEdgeKind : uint8_t {
  Order,            // program order inside a thread block
  Communication,    // a send and the receive it pairs with
  TrueDependency,   // reads what the other wrote
  FalseDependency,  // overwrites what the other read or wrote
  Wait,             // an IR dependency (depid, deps)
  Highlight,        // part of a deadlock cycle or race pair
};

struct ChunkRange {
  int32_t lo = 0, hi = 0;  // [lo, hi)
  bool contains(int32_t c) const { return lo <= c && c < hi; }
};

struct DotNode {
  int32_t rank = 0;
  int32_t tb = -1;    // thread block cluster inside the rank's; -1: none
  int32_t order = 0;  // position inside its cluster
  ChunkRange a, b;    // chunks it touches
  bool highlighted = false;
  bool compute = false;  // a compute step of a fused program (drawn as a filled box)
};

struct DotEdge {
  int32_t from = 0;
  int32_t to = 0;
  DotEdgeKind kind = DotEdgeKind::Order;
};

struct DotModel {
  std::string title;
  std::vector<DotNode> nodes;
  std::vector<DotEdge> edges;
  std::function<std::string(int32_t node)> label;  // called only for the nodes drawn
  std::function<std::string(int32_t rank, int32_t tb)> clusterLabel;
};

struct DotFilter {
  std::optional<int32_t> rank;
  std::optional<int32_t> chunk;
  std::optional<int32_t> around;  // a node; with `radius` edges around it
  int32_t radius = 2;
  size_t maxNodes = 2000;
};

class DotTooLarge : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The DOT text of the filtered model. An edge that leaves the selection keeps its other end,
// drawn faded. Throws DotTooLarge when more than filter.maxNodes nodes would be drawn.
std::string toDot(const DotModel& model, const DotFilter& filter);

}  // namespace ccforge::viz
