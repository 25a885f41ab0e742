#include "viz/dot_render.hpp"

#include <cstring>
#include <stdexcept>

#include "base/bounded_process.hpp"
#include "base/output_file.hpp"

namespace ccforge::viz {

std::optional<DotFormat> formatForPath(const std::filesystem::path& path) {
  const std::string ext = path.extension().string();
  if (ext == ".dot" || ext == ".gv") return DotFormat::Dot;
  if (ext == ".svg") return DotFormat::Svg;
  if (ext == ".png") return DotFormat::Png;
  if (ext == ".pdf") return DotFormat::Pdf;
  return std::nullopt;
}

namespace {

// Runs Graphviz's dot on `dot`, writing the picture of `format` to `out`.
void render(const std::string& dot, DotFormat format, const std::filesystem::path& out, std::chrono::seconds limit) {
  const std::string type = format == DotFormat::Svg ? "-Tsvg" : format == DotFormat::Png ? "-Tpng" : "-Tpdf";
  const base::ProcessOutcome r = base::runBounded({"dot", type, "-o", out.string()}, dot, limit);
  using Kind = base::ProcessOutcome::Kind;
  if (r.kind == Kind::NotStarted)
    throw std::runtime_error("cannot run Graphviz's dot (" + std::string(std::strerror(r.code)) +
                             "); install the Debian package graphviz, or write .dot and render it elsewhere");
  if (r.kind == Kind::TimedOut)
    throw std::runtime_error("Graphviz's dot did not finish within " + std::to_string(limit.count()) +
                             " s; draw less (--rank, --chunk, --around)");
  if (!r.succeeded())
    throw std::runtime_error("Graphviz's dot could not render " + out.string() +
                             (r.kind == Kind::Exited ? " (exit " + std::to_string(r.code) + ")" : ""));
}

}  // namespace

void writePicture(const std::string& dot, DotFormat format, const std::filesystem::path& path,
                  std::chrono::seconds limit) {
  if (format == DotFormat::Dot) {
    base::writeOutputFile(path, dot);
    return;
  }
  // Rendered beside the target and renamed over it: a failed or killed dot leaves no partial picture.
  base::replaceOutputFile(path, [&](const std::filesystem::path& temporary) { render(dot, format, temporary, limit); });
}

}  // namespace ccforge::viz
