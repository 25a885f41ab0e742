#include "codegen/dot_render.hpp"

#include <graphviz/gvc.h>

#include <fstream>
#include <memory>
#include <stdexcept>

namespace ccforge::codegen {

std::optional<DotFormat> formatForPath(const std::filesystem::path& path) {
  const std::string ext = path.extension().string();
  if (ext == ".dot" || ext == ".gv") return DotFormat::Dot;
  if (ext == ".svg") return DotFormat::Svg;
  if (ext == ".png") return DotFormat::Png;
  if (ext == ".pdf") return DotFormat::Pdf;
  return std::nullopt;
}

void writePicture(const std::string& dot, DotFormat format, const std::filesystem::path& path) {
  if (format == DotFormat::Dot) {
    std::ofstream out(path, std::ios::binary);
    out << dot;
    if (!out.flush()) throw std::runtime_error("cannot write " + path.string());
    return;
  }
  std::unique_ptr<GVC_t, decltype(&gvFreeContext)> gvc(gvContext(), gvFreeContext);
  std::unique_ptr<Agraph_t, decltype(&agclose)> graph(agmemread(dot.c_str()), agclose);
  if (!gvc || !graph) throw std::runtime_error("Graphviz could not read the generated DOT text");
  if (gvLayout(gvc.get(), graph.get(), "dot") != 0) throw std::runtime_error("Graphviz could not lay out the graph");
  const char* renderer = format == DotFormat::Svg ? "svg" : format == DotFormat::Png ? "png" : "pdf";
  const int rendered = gvRenderFilename(gvc.get(), graph.get(), renderer, path.string().c_str());
  gvFreeLayout(gvc.get(), graph.get());
  if (rendered != 0) throw std::runtime_error("Graphviz could not write " + path.string());
}

}  // namespace ccforge::codegen
