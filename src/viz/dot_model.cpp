#include "viz/dot_model.hpp"

#include <algorithm>
#include <deque>
#include <tuple>

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

const char* edgeStyle(DotEdgeKind k) {
  switch (k) {
    case DotEdgeKind::Order: return "color=gray60, arrowsize=0.5";
    case DotEdgeKind::Communication: return "color=blue, penwidth=2";
    case DotEdgeKind::TrueDependency: return "color=black";
    case DotEdgeKind::FalseDependency: return "color=gray50, style=dashed";
    case DotEdgeKind::Wait: return "color=darkorange, style=dashed";
    case DotEdgeKind::Highlight: return "color=red, penwidth=3";
  }
  return "";
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

  std::string out = "digraph " + quoted(m.title) + " {\n";
  out += "  graph [label=" + quoted(m.title) + ", labelloc=t, fontname=Helvetica, newrank=true];\n";
  out += "  node [shape=box, style=\"rounded,filled\", fillcolor=white, fontname=Helvetica, fontsize=10];\n";
  out += "  edge [fontname=Helvetica, fontsize=9];\n";
  int32_t openRank = -1, openTb = -1;
  bool inRank = false, inTb = false;
  for (int32_t v : drawn) {
    const DotNode& d = m.nodes[static_cast<size_t>(v)];
    if (!inRank || d.rank != openRank) {
      if (inTb) out += "    }\n";
      if (inRank) out += "  }\n";
      out += "  subgraph cluster_r" + std::to_string(d.rank) + " {\n    label=" +
             quoted(m.clusterLabel(d.rank, -1)) + "; style=rounded; color=gray40;\n";
      inRank = true;
      inTb = false;
      openRank = d.rank;
      openTb = -1;
    }
    if (d.tb >= 0 && (!inTb || d.tb != openTb)) {
      if (inTb) out += "    }\n";
      out += "    subgraph cluster_r" + std::to_string(d.rank) + "_t" + std::to_string(d.tb) + " {\n      label=" +
             quoted(m.clusterLabel(d.rank, d.tb)) + "; style=\"rounded,filled\"; fillcolor=gray95; color=gray70;\n";
      inTb = true;
      openTb = d.tb;
    }
    std::string attrs = "label=" + quoted(m.label(v));
    if (d.highlighted) attrs += ", fillcolor=red, fontcolor=white";
    else if (d.compute) attrs += ", shape=box, style=\"filled\", fillcolor=gold";
    else if (mark[static_cast<size_t>(v)] == Mark::Boundary) attrs += ", style=\"rounded,dashed\", fontcolor=gray50";
    out += std::string(inTb ? "      " : "    ") + "n" + std::to_string(v) + " [" + attrs + "];\n";
  }
  if (inTb) out += "    }\n";
  if (inRank) out += "  }\n";
  for (const DotEdge& e : m.edges) {
    if (mark[static_cast<size_t>(e.from)] == Mark::Out || mark[static_cast<size_t>(e.to)] == Mark::Out) continue;
    if (e.kind == DotEdgeKind::Order && (mark[static_cast<size_t>(e.from)] != Mark::In || mark[static_cast<size_t>(e.to)] != Mark::In))
      continue;
    out += "  n" + std::to_string(e.from) + " -> n" + std::to_string(e.to) + " [" + edgeStyle(e.kind) + "];\n";
  }
  out += "}\n";
  return out;
}

}  // namespace ccforge::viz
