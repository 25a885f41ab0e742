#include "viz/topology_dot.hpp"

#include <map>
#include <sstream>

namespace ccforge::viz {
using namespace ccforge::topo;
namespace {

std::string_view shapeOf(VertexKind k) {
  switch (k) {
    case VertexKind::Gpu: return "box";
    case VertexKind::Switch: return "diamond";
    case VertexKind::Nic: return "hexagon";
  }
  return "box";
}

std::string label(const Link& l) {
  std::string text = toFixed(l.bandwidthGBps, 2);
  while (text.back() == '0') text.pop_back();
  if (text.back() == '.') text.pop_back();
  return text + " GB/s";
}

bool sameAttributes(const Link& a, const Link& b) {
  return a.bandwidthGBps == b.bandwidthGBps && a.alphaUs == b.alphaUs && a.linkClass == b.linkClass;
}

}  // namespace

std::string topologyToDot(const Topology& t) {
  std::ostringstream out;
  out << "digraph \"" << t.name << "\" {\n";
  out << "  node [fontname=\"Helvetica\"];\n  edge [fontname=\"Helvetica\", fontsize=10];\n";
  std::map<int32_t, std::vector<size_t>> byBox;
  for (size_t v = 0; v < t.vertices().size(); ++v) byBox[t.vertices()[v].box].push_back(v);
  bool clusters = t.boxCount() > 1;
  for (const auto& [box, members] : byBox) {
    std::string indent = clusters ? "    " : "  ";
    if (clusters) out << "  subgraph cluster_box" << box << " {\n    label=\"box " << box << "\";\n";
    for (size_t v : members) {
      const Vertex& vertex = t.vertices()[v];
      out << indent << "\"" << vertex.name << "\" [shape=" << shapeOf(vertex.kind);
      if (t.isCompute(static_cast<int32_t>(v)))
        out << ", label=\"" << vertex.name << "\\nrank " << t.rankOf(static_cast<int32_t>(v)) << "\"";
      out << "];\n";
    }
    if (clusters) out << "  }\n";
  }
  for (size_t id = 0; id < t.links().size(); ++id) {
    const Link& l = t.links()[id];
    auto back = t.findLink(l.to, l.from);
    bool pair = back && sameAttributes(l, t.links()[static_cast<size_t>(*back)]);
    if (pair && static_cast<size_t>(*back) < id) continue;
    out << "  \"" << t.vertices()[static_cast<size_t>(l.from)].name << "\" -> \""
        << t.vertices()[static_cast<size_t>(l.to)].name << "\" [label=\"" << label(l) << "\"";
    if (pair) out << ", dir=both";
    if (l.linkClass != LinkClass::NVLink)
      out << ", style=" << (l.linkClass == LinkClass::Network ? "dashed" : "dotted");
    out << "];\n";
  }
  out << "}\n";
  return out.str();
}

}  // namespace ccforge::viz
