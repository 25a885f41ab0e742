#include "tune/plot.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <filesystem>

#include "base/xml_escape.hpp"
#include "base/byte_size.hpp"

namespace ccforge::tune {
namespace {

constexpr double kWidth = 1000, kHeight = 620;
constexpr double kLeft = 70, kRight = 330, kTop = 40, kBottom = 70;
constexpr const char* kPalette[] = {"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2",
                                    "#7f7f7f", "#bcbd22", "#17becf", "#393b79", "#637939", "#8c6d31", "#843c39",
                                    "#7b4173", "#3182bd", "#e6550d", "#31a354", "#756bb1", "#636363"};

}  // namespace

std::string plotSvg(const CollectiveTuning& t, const std::string& title) {
  const size_t n = t.sizes.size();
  // y range over every predicted algbw, whole decades.
  double lo = 1e300, hi = 0;
  auto see = [&](double v) {
    if (v > 0 && std::isfinite(v)) {
      lo = std::min(lo, v);
      hi = std::max(hi, v);
    }
  };
  for (size_t i = 0; i < n; ++i) {
    see(algbwGBps(t.sizes[i], t.nccl[i].timeUs));
    for (const Evaluation& e : t.evaluations)
      if (e.timeUs[i]) see(algbwGBps(t.sizes[i], *e.timeUs[i]));
  }
  if (hi <= 0) lo = hi = 1;
  const double yLo = std::floor(std::log10(lo)), yHi = std::max(std::ceil(std::log10(hi)), yLo + 1);
  const double plotW = kWidth - kLeft - kRight, plotH = kHeight - kTop - kBottom;
  const double x0 = std::log2(static_cast<double>(t.sizes.front()));
  const double x1 = std::max(std::log2(static_cast<double>(t.sizes.back()) * 2), x0 + 1);
  auto X = [&](double bytes) { return kLeft + (std::log2(bytes) - x0) / (x1 - x0) * plotW; };
  auto Y = [&](double gbps) { return kTop + plotH - (std::log10(gbps) - yLo) / (yHi - yLo) * plotH; };

  std::string s = fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{0}\" height=\"{1}\" viewBox=\"0 0 {0} {1}\" "
      "font-family=\"sans-serif\" font-size=\"11\">\n<rect width=\"{0}\" height=\"{1}\" fill=\"white\"/>\n",
      kWidth, kHeight);
  s += fmt::format("<text x=\"{}\" y=\"22\" font-size=\"14\" font-weight=\"bold\">{}</text>\n", kLeft,
                   base::xmlEscaped(title));
  // Windows: in-place in the upper half of the plot, out-of-place in the lower half.
  for (const Window& w : t.windows) {
    const bool ip = w.form == semantics::CallForm::InPlace;
    const double xa = X(static_cast<double>(t.sizes[w.firstSize])),
                 xb = X(static_cast<double>(t.sizes[w.lastSize]) * 2);
    const double ya = ip ? kTop : kTop + plotH / 2;
    s += fmt::format(
        "<rect x=\"{:.1f}\" y=\"{:.1f}\" width=\"{:.1f}\" height=\"{:.1f}\" fill=\"{}\" fill-opacity=\"0.13\"/>\n", xa,
        ya, xb - xa, plotH / 2, kPalette[w.candidate % std::size(kPalette)]);
    s += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" font-size=\"9\" fill=\"#333\">{} #{}</text>\n", xa + 2,
                     ya + (ip ? 10 : plotH / 2 - 4), ip ? "in-place" : "out-of-place", w.candidate + 1);
  }
  // Axes and grid.
  s += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"none\" stroke=\"black\"/>\n", kLeft, kTop,
                   plotW, plotH);
  s += fmt::format("<line x1=\"{0}\" y1=\"{1}\" x2=\"{2}\" y2=\"{1}\" stroke=\"#999\" stroke-dasharray=\"2,3\"/>\n",
                   kLeft, kTop + plotH / 2, kLeft + plotW);
  for (double d = yLo; d <= yHi + 1e-9; d += 1) {
    const double y = Y(std::pow(10, d));
    s += fmt::format("<line x1=\"{0}\" y1=\"{1:.1f}\" x2=\"{2}\" y2=\"{1:.1f}\" stroke=\"#ddd\"/>\n", kLeft, y,
                     kLeft + plotW);
    s += fmt::format("<text x=\"{}\" y=\"{:.1f}\" text-anchor=\"end\">{}</text>\n", kLeft - 6, y + 4,
                     d >= 0 ? fmt::format("{:.0f}", std::pow(10, d)) : fmt::format("{:g}", std::pow(10, d)));
  }
  for (size_t i = 0; i < n; i += (n > 16 ? 2 : 1)) {
    const double x = X(static_cast<double>(t.sizes[i]));
    s += fmt::format("<line x1=\"{0:.1f}\" y1=\"{1}\" x2=\"{0:.1f}\" y2=\"{2}\" stroke=\"#eee\"/>\n", x, kTop,
                     kTop + plotH);
    s += fmt::format("<text x=\"{:.1f}\" y=\"{}\" text-anchor=\"end\" transform=\"rotate(-40 {:.1f} {})\">{}</text>\n",
                     x, kTop + plotH + 14, x, kTop + plotH + 14, base::byteSizeName(t.sizes[i]));
  }
  s += fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">size (bytes, nccl-tests' size)</text>\n",
                   kLeft + plotW / 2, kHeight - 8);
  s += fmt::format(
      "<text x=\"16\" y=\"{0}\" text-anchor=\"middle\" transform=\"rotate(-90 16 {0})\">predicted algbw "
      "(GB/s)</text>\n",
      kTop + plotH / 2);
  // Curves.
  auto polyline = [&](const std::vector<std::pair<double, double>>& pts, const std::string& style) {
    if (pts.empty()) return;
    s += "<polyline fill=\"none\" " + style + " points=\"";
    for (const auto& [b, g] : pts) s += fmt::format("{:.1f},{:.1f} ", X(b), Y(g));
    s += "\"/>\n";
  };
  for (size_t c = 0; c < t.evaluations.size(); ++c) {
    std::vector<std::pair<double, double>> pts;
    for (size_t i = 0; i < n; ++i)
      if (t.evaluations[c].timeUs[i])
        pts.push_back({static_cast<double>(t.sizes[i]), algbwGBps(t.sizes[i], *t.evaluations[c].timeUs[i])});
    polyline(pts, fmt::format("stroke=\"{}\" stroke-width=\"1.3\"", kPalette[c % std::size(kPalette)]));
  }
  std::vector<std::pair<double, double>> nccl;
  for (size_t i = 0; i < n; ++i)
    nccl.push_back({static_cast<double>(t.sizes[i]), algbwGBps(t.sizes[i], t.nccl[i].timeUs)});
  polyline(nccl, "stroke=\"black\" stroke-width=\"2.5\" stroke-dasharray=\"6,3\"");
  // Legend.
  const double lx = kWidth - kRight + 16;
  double ly = kTop + 6;
  const double step = std::min(16.0, (plotH + kBottom - 20) / static_cast<double>(t.evaluations.size() + 2));
  s += fmt::format(
      "<line x1=\"{0}\" y1=\"{1:.1f}\" x2=\"{2}\" y2=\"{1:.1f}\" stroke=\"black\" stroke-width=\"2.5\" "
      "stroke-dasharray=\"6,3\"/><text x=\"{3}\" y=\"{4:.1f}\">NCCL fallback (model)</text>\n",
      lx, ly, lx + 22, lx + 28, ly + 4);
  for (size_t c = 0; c < t.set.candidates.size(); ++c) {
    ly += step;
    std::string name = t.set.candidates[c].id;  // the short name files carry; the report lists the full one
    if (name.size() > 44) name = name.substr(0, 41) + "...";
    s += fmt::format(
        "<line x1=\"{0}\" y1=\"{1:.1f}\" x2=\"{2}\" y2=\"{1:.1f}\" stroke=\"{3}\" stroke-width=\"2\"/>"
        "<text x=\"{4}\" y=\"{5:.1f}\" font-size=\"{6:.0f}\">#{7} {8}</text>\n",
        lx, ly, lx + 22, kPalette[c % std::size(kPalette)], lx + 28, ly + 4, std::min(11.0, step - 1), c + 1,
        base::xmlEscaped(name));
  }
  s += "</svg>\n";
  return s;
}

}  // namespace ccforge::tune
