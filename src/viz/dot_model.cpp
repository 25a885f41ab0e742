#include "viz/dot_model.hpp"

#include <algorithm>
#include <deque>
#include <iterator>
#include <map>
#include <set>
#include <tuple>

#include "base/xml_escape.hpp"

namespace ccforge::viz {
namespace {

std::string quoted(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c == '\n' ? ' ' : c;
  }
  return out + "\"";
}

// How each kind of edge and mark is drawn and what the legend says of it: one table for both.
struct EdgeLook {
  const char* style;  // DOT attributes
  const char* color;  // for the legend's sample line
  bool dashed;
  const char* meaning;
};
EdgeLook edgeLook(DotEdgeKind k) {
  switch (k) {
    case DotEdgeKind::Order: return {"color=gray60, arrowsize=0.5", "gray60", false, "program order in a thread block"};
    case DotEdgeKind::Communication:
      return {"color=blue, penwidth=2", "blue", false, "a send and the receive it pairs with"};
    case DotEdgeKind::TrueDependency: return {"color=black", "black", false, "reads what the other wrote"};
    case DotEdgeKind::FalseDependency:
      return {"color=gray50, style=dashed", "gray50", true,
              "false dependency: overwrites what the other read or wrote (orders them, moves no data)"};
    case DotEdgeKind::Wait:
      return {"color=darkorange, style=dashed", "darkorange", true, "waits for (depid/deps in the file)"};
    case DotEdgeKind::FindingPath:
      return {"color=red, penwidth=3", "red", false, "a finding: deadlock cycle, race pair or wrong chunk's chain"};
    case DotEdgeKind::WitnessPath:
      return {"color=goldenrod, penwidth=3", "goldenrod", false, "the SMT witness's schedule, in order"};
  }
  return {"", "black", false, ""};
}
constexpr DotEdgeKind kEdgeKinds[] = {
    DotEdgeKind::Order, DotEdgeKind::Communication, DotEdgeKind::TrueDependency, DotEdgeKind::FalseDependency,
    DotEdgeKind::Wait,  DotEdgeKind::FindingPath,   DotEdgeKind::WitnessPath};

struct MarkLook {
  const char* attributes;  // DOT node attributes added to the label
  const char* fill;        // for the legend's sample cell
  const char* border;
  const char* meaning;
};
MarkLook markLook(NodeMark m) {
  switch (m) {
    case NodeMark::Finding: return {", fillcolor=red, fontcolor=white", "red", "red", "a step a finding names"};
    case NodeMark::Witness: return {", fillcolor=gold", "gold", "black", "a step the witness runs"};
    case NodeMark::Blocked:
      return {", fillcolor=white, color=red, penwidth=3, style=\"rounded,filled,bold\"", "white", "red",
              "blocked: where a deadlocked thread block waits"};
    case NodeMark::None: break;
  }
  return {"", "white", "black", ""};
}
constexpr NodeMark kMarks[] = {NodeMark::Finding, NodeMark::Witness, NodeMark::Blocked};

// The title, the note and a legend of what is drawn, as the graph's HTML-like label (a label adds
// no node, so the picture's nodes are the program's steps only).
std::string titleAndLegend(const std::string& title, const std::string& note, const std::vector<bool>& edgeKindDrawn,
                           const std::vector<bool>& markDrawn, bool boundaryDrawn, bool computeDrawn) {
  std::string rows;
  for (DotEdgeKind k : kEdgeKinds) {
    if (!edgeKindDrawn[static_cast<size_t>(k)]) continue;
    const EdgeLook look = edgeLook(k);
    rows += std::string("<tr><td><font color=\"") + look.color + "\">" +
            (look.dashed ? "- - - &#9654;" : "&#8212;&#8212;&#8212;&#9654;") + "</font></td><td align=\"left\">" +
            base::xmlEscaped(look.meaning) + "</td></tr>";
  }
  for (NodeMark m : kMarks) {
    if (!markDrawn[static_cast<size_t>(m)]) continue;
    const MarkLook look = markLook(m);
    rows += std::string("<tr><td bgcolor=\"") + look.fill + "\" color=\"" + look.border +
            "\" border=\"2\"> step </td>" + "<td align=\"left\">" + base::xmlEscaped(look.meaning) + "</td></tr>";
  }
  if (computeDrawn)
    rows +=
        "<tr><td bgcolor=\"lightskyblue\" border=\"1\"> step </td><td align=\"left\">a compute step of a fused "
        "program: produces a slice from the operands</td></tr>";
  if (boundaryDrawn)
    rows +=
        "<tr><td><font color=\"gray50\">step</font></td><td align=\"left\">outside the view: the other end of an edge "
        "leaving it (dashed box)</td></tr>";
  std::string label = "<<table border=\"0\" cellborder=\"0\" cellspacing=\"2\"><tr><td colspan=\"2\"><b>" +
                      base::xmlEscaped(title) + "</b></td></tr>";
  if (!note.empty()) label += "<tr><td colspan=\"2\">" + base::xmlEscaped(note) + "</td></tr>";
  return label + rows + "</table>>";
}

enum class Mark : uint8_t { Out, In, Boundary };

std::vector<Mark> select(const DotModel& m, const DotFilter& f) {
  const size_t n = m.nodes.size();
  std::vector<Mark> mark(n, Mark::Out);
  auto passes = [&](const DotNode& d) {
    return (!f.rank || d.rank == *f.rank) && (!f.chunk || d.a.contains(*f.chunk) || d.b.contains(*f.chunk));
  };
  if (f.around) {
    std::vector<std::vector<int32_t>> adjacent(n);
    for (const DotEdge& e : m.edges) {
      adjacent[static_cast<size_t>(e.from)].push_back(e.to);
      adjacent[static_cast<size_t>(e.to)].push_back(e.from);
    }
    std::vector<int32_t> distance(n, -1);
    std::deque<int32_t> queue{*f.around};
    distance[static_cast<size_t>(*f.around)] = 0;
    while (!queue.empty()) {
      const int32_t v = queue.front();
      queue.pop_front();
      if (passes(m.nodes[static_cast<size_t>(v)])) mark[static_cast<size_t>(v)] = Mark::In;
      if (distance[static_cast<size_t>(v)] == f.radius) continue;
      for (int32_t w : adjacent[static_cast<size_t>(v)])
        if (distance[static_cast<size_t>(w)] < 0) {
          distance[static_cast<size_t>(w)] = distance[static_cast<size_t>(v)] + 1;
          queue.push_back(w);
        }
    }
  } else {
    for (size_t i = 0; i < n; ++i)
      if (passes(m.nodes[i])) mark[i] = Mark::In;
  }
  for (const DotEdge& e : m.edges) {
    if (e.kind == DotEdgeKind::Order) continue;
    Mark& a = mark[static_cast<size_t>(e.from)];
    Mark& b = mark[static_cast<size_t>(e.to)];
    if (a == Mark::In && b == Mark::Out) b = Mark::Boundary;
    if (b == Mark::In && a == Mark::Out) a = Mark::Boundary;
  }
  return mark;
}

// The layer of each drawn node: the longest path to it over the drawn edges but the highlight
// paths (a deadlock cycle is a cycle), with the edges that close a cycle (back edges of a
// depth-first search in node order) left out.
std::vector<int32_t> layers(const std::vector<int32_t>& drawn, const std::vector<const DotEdge*>& edges,
                            size_t nodeCount) {
  std::vector<std::vector<int32_t>> out(nodeCount);
  for (const DotEdge* e : edges)
    if (e->kind != DotEdgeKind::FindingPath && e->kind != DotEdgeKind::WitnessPath)
      out[static_cast<size_t>(e->from)].push_back(e->to);
  enum class Visit : uint8_t { New, Open, Done };
  std::vector<Visit> visit(nodeCount, Visit::New);
  std::vector<int32_t> finished;  // reverse topological order of the acyclic part
  std::vector<std::vector<int32_t>> acyclic(nodeCount);
  for (int32_t root : drawn) {
    if (visit[static_cast<size_t>(root)] != Visit::New) continue;
    std::vector<std::pair<int32_t, size_t>> stack{{root, 0}};
    visit[static_cast<size_t>(root)] = Visit::Open;
    while (!stack.empty()) {
      auto& [v, next] = stack.back();
      const std::vector<int32_t>& succ = out[static_cast<size_t>(v)];
      if (next == succ.size()) {
        visit[static_cast<size_t>(v)] = Visit::Done;
        finished.push_back(v);
        stack.pop_back();
        continue;
      }
      const int32_t w = succ[next++];
      if (visit[static_cast<size_t>(w)] == Visit::Open) continue;  // closes a cycle
      acyclic[static_cast<size_t>(v)].push_back(w);
      if (visit[static_cast<size_t>(w)] == Visit::New) {
        visit[static_cast<size_t>(w)] = Visit::Open;
        stack.emplace_back(w, 0);
      }
    }
  }
  std::vector<int32_t> depth(nodeCount, 0);
  for (auto it = finished.rbegin(); it != finished.rend(); ++it)
    for (int32_t w : acyclic[static_cast<size_t>(*it)])
      depth[static_cast<size_t>(w)] = std::max(depth[static_cast<size_t>(w)], depth[static_cast<size_t>(*it)] + 1);
  return depth;
}

}  // namespace

std::string toDot(const DotModel& m, const DotFilter& f) {
  const std::vector<Mark> mark = select(m, f);
  std::vector<int32_t> drawn;
  for (size_t i = 0; i < mark.size(); ++i)
    if (mark[i] != Mark::Out) drawn.push_back(static_cast<int32_t>(i));
  if (drawn.size() > f.maxNodes)
    throw DotTooLarge("the view has " + std::to_string(drawn.size()) + " nodes, over the cap of " +
                      std::to_string(f.maxNodes) +
                      " (Graphviz's dot needs about 20 s for 4,000 nodes): narrow it with --rank, --chunk or "
                      "--around, or raise --max-nodes");
  auto key = [&](int32_t v) {
    const DotNode& d = m.nodes[static_cast<size_t>(v)];
    return std::tuple(d.rank, d.tb, d.order, v);
  };
  std::sort(drawn.begin(), drawn.end(), [&](int32_t x, int32_t y) { return key(x) < key(y); });

  std::vector<bool> edgeKindDrawn(std::size(kEdgeKinds), false), markDrawn(std::size(kMarks) + 1, false);
  bool boundaryDrawn = false, computeDrawn = false;
  for (int32_t v : drawn) {
    computeDrawn = computeDrawn || m.nodes[static_cast<size_t>(v)].compute;
    markDrawn[static_cast<size_t>(m.nodes[static_cast<size_t>(v)].mark)] = true;
    boundaryDrawn = boundaryDrawn || mark[static_cast<size_t>(v)] == Mark::Boundary;
  }
  std::vector<const DotEdge*> drawnEdges;
  for (const DotEdge& e : m.edges) {
    const Mark from = mark[static_cast<size_t>(e.from)], to = mark[static_cast<size_t>(e.to)];
    if (from == Mark::Out || to == Mark::Out) continue;
    if (e.kind == DotEdgeKind::Order && (from != Mark::In || to != Mark::In)) continue;
    drawnEdges.push_back(&e);
    edgeKindDrawn[static_cast<size_t>(e.kind)] = true;
  }

  std::string out = "digraph " + quoted(m.title) + " {\n";
  out += "  graph [label=" + titleAndLegend(m.title, f.note, edgeKindDrawn, markDrawn, boundaryDrawn, computeDrawn) +
         ", labelloc=t, labeljust=l, fontname=Helvetica, newrank=true];\n";
  out += "  node [shape=box, style=\"rounded,filled\", fillcolor=white, fontname=Helvetica, fontsize=10];\n";
  out += "  edge [fontname=Helvetica, fontsize=9];\n";
  int32_t openRank = -1, openTb = -1;
  bool inRank = false, inTb = false;
  for (int32_t v : drawn) {
    const DotNode& d = m.nodes[static_cast<size_t>(v)];
    if (!inRank || d.rank != openRank) {
      if (inTb) out += "    }\n";
      if (inRank) out += "  }\n";
      out += "  subgraph cluster_r" + std::to_string(d.rank) + " {\n    label=" + quoted(m.clusterLabel(d.rank, -1)) +
             "; style=rounded; color=gray40;\n";
      out += "    anchor_r" + std::to_string(d.rank) + " [style=invis, shape=point, width=0, label=\"\"];\n";
      inRank = true;
      inTb = false;
      openRank = d.rank;
      openTb = -1;
    }
    if (d.tb >= 0 && (!inTb || d.tb != openTb)) {
      if (inTb) out += "    }\n";
      out += "    subgraph cluster_r" + std::to_string(d.rank) + "_t" + std::to_string(d.tb) +
             " {\n      label=" + quoted(m.clusterLabel(d.rank, d.tb)) +
             "; style=\"rounded,filled\"; fillcolor=gray95; color=gray70;\n";
      inTb = true;
      openTb = d.tb;
    }
    std::string attrs = "label=" + quoted(m.label(v));
    if (d.mark != NodeMark::None)
      attrs += markLook(d.mark).attributes;
    else if (d.compute)
      attrs += ", shape=box, style=\"filled\", fillcolor=lightskyblue";
    else if (mark[static_cast<size_t>(v)] == Mark::Boundary)
      attrs += ", style=\"rounded,dashed\", fontcolor=gray50";
    out += std::string(inTb ? "      " : "    ") + "n" + std::to_string(v) + " [" + attrs + "];\n";
  }
  if (inTb) out += "    }\n";
  if (inRank) out += "  }\n";
  // Graphviz reorders rank clusters to cross fewer edges (rank 1 left of rank 0) when edges join
  // them; edges with constraint=false take no part in that. So every drawn edge is
  // constraint=false, and the layers (longest path over the drawn edges) are held by invisible
  // edges inside each rank's cluster alone: from the rank's anchor, on the top layer with every
  // other anchor, down through its nodes in layer order.
  const std::vector<int32_t> depth = layers(drawn, drawnEdges, m.nodes.size());
  std::map<int32_t, std::map<int32_t, std::vector<int32_t>>> layersOfRank;
  for (int32_t v : drawn)
    layersOfRank[m.nodes[static_cast<size_t>(v)].rank][depth[static_cast<size_t>(v)]].push_back(v);
  // The anchors hang from one invisible root whose out-edges keep the order they are written
  // in (ordering=out): that fixes the clusters' order, which crossing minimisation may
  // otherwise change.
  out += "  order_root [style=invis, shape=point, width=0, label=\"\", ordering=out];\n";
  out += "  { rank=same;";
  for (const auto& [rank, unused] : layersOfRank) out += " anchor_r" + std::to_string(rank) + ";";
  out += " }\n";
  for (const auto& [rank, unused] : layersOfRank)
    out += "  order_root -> anchor_r" + std::to_string(rank) + " [style=invis];\n";
  for (const auto& [rank, byDepth] : layersOfRank) {
    std::string above = "anchor_r" + std::to_string(rank);
    int32_t aboveDepth = -1;
    for (const auto& [layer, nodes] : byDepth) {
      for (int32_t v : nodes)
        out += "  " + above + " -> n" + std::to_string(v) +
               " [style=invis, minlen=" + std::to_string(layer - aboveDepth) + "];\n";
      above = "n" + std::to_string(nodes.front());
      aboveDepth = layer;
    }
  }
  for (const DotEdge* e : drawnEdges)
    out += "  n" + std::to_string(e->from) + " -> n" + std::to_string(e->to) + " [" + edgeLook(e->kind).style +
           ", constraint=false];\n";
  out += "}\n";
  return out;
}

DotFilter legibleFilter(const DotModel& model, const DotFilter& requested, bool allRanks) {
  if (allRanks || requested.rank || requested.chunk || requested.around) return requested;
  std::set<int32_t> ranks;
  std::optional<int32_t> highlightedRank;
  for (const DotNode& d : model.nodes) {
    ranks.insert(d.rank);
    if (d.mark != NodeMark::None && (!highlightedRank || d.rank < *highlightedRank)) highlightedRank = d.rank;
  }
  if (ranks.size() <= static_cast<size_t>(kMaxRanksDrawnTogether)) return requested;
  DotFilter narrowed = requested;
  narrowed.rank = highlightedRank ? *highlightedRank : *ranks.begin();
  narrowed.note = "rank " + std::to_string(*narrowed.rank) + " of " + std::to_string(ranks.size()) +
                  " ranks, with the other ends of its edges; --rank N draws another, --all-ranks draws them all";
  return narrowed;
}

}  // namespace ccforge::viz
