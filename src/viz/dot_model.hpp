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
  FindingPath,      // joins the steps a finding names: a deadlock cycle, a race pair, a wrong chunk's chain
  WitnessPath,      // joins an SMT witness's schedule, in the order it runs
};

// What a highlighted step is part of; each is drawn distinctly and explained in the legend.
enum class NodeMark : uint8_t {
  None,
  Finding,  // named by a finding of the verifier
  Witness,  // runs in an SMT witness's schedule
  Blocked,  // where a deadlocked thread block waits at the end of a witness
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
  NodeMark mark = NodeMark::None;
  bool compute = false;  // a compute step of a fused program (drawn as a square blue box)
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
  std::string note;  // said under the title, e.g. how the view was narrowed and how to widen it
};

// A view of more ranks than this, with no --rank, --chunk or --around, is drawn one rank at a time:
// past about four side-by-side rank clusters Graphviz's layout is wider than a screen and the
// communication edges cross into a tangle.
inline constexpr int32_t kMaxRanksDrawnTogether = 4;

// The filter to draw with: `requested`, or, when it selects nothing and the model has more than
// kMaxRanksDrawnTogether ranks (and `allRanks` is false), one rank (the first with a highlighted
// step, else the lowest) with a note saying how to see the others.
DotFilter legibleFilter(const DotModel& model, const DotFilter& requested, bool allRanks);

class DotTooLarge : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The DOT text of the filtered model: rank clusters left to right in rank order, and a legend
// (in the graph's label) for the kinds of edges and marks drawn. An edge that leaves the selection
// keeps its other end, drawn faded. Throws DotTooLarge when more than filter.maxNodes nodes would be
// drawn.
std::string toDot(const DotModel& model, const DotFilter& filter);

}  // namespace ccforge::viz
