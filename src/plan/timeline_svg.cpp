#include "plan/timeline_svg.hpp"

#include <algorithm>
#include <cstdio>
#include <sstream>

#include "base/xml_escape.hpp"

namespace ccforge::plan {
namespace {

std::string fixed(double v, int digits = 1) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

const char* kAlgorithmColours[] = {"#e6842a", "#c0392b", "#8e44ad", "#16a085", "#7f8c8d", "#d4ac0d"};

}  // namespace

std::string timelineSvg(const Workload& w, const ComputeSchedule& schedule, const BucketPlan& buckets,
                        const CommCost& cost, const std::string& title, double lowerBoundUs) {
  const double width = 1200, left = 110, right = 20, laneH = 36;
  const double end = std::max({schedule.computeEndUs, buckets.finishUs, lowerBoundUs, 1.0});
  const double scale = (width - left - right) / end;
  const int channels = [&] {
    int c = 1;
    for (const Bucket& b : buckets.buckets) c = std::max(c, b.channel + 1);
    return c;
  }();
  const double height = 70 + laneH * (1 + channels) + 60;
  std::ostringstream s;
  s << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << fixed(width, 0) << "\" height=\"" << fixed(height, 0)
    << "\" font-family=\"sans-serif\" font-size=\"12\">\n";
  s << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  s << "<text x=\"10\" y=\"20\" font-size=\"14\">" << base::xmlEscaped(title) << "</text>\n";
  const double top = 40;
  s << "<text x=\"10\" y=\"" << fixed(top + laneH * 0.6) << "\">compute</text>\n";
  for (const Kernel& k : schedule.kernels) {
    double x = left + k.startUs * scale, wdt = std::max(0.5, k.timeUs * scale);
    bool fused = k.lastOp > k.firstOp || !k.duplicated.empty();
    const char* fill = k.phase == Phase::Forward ? (fused ? "#2e6da4" : "#5b9bd5") : (fused ? "#3d8b37" : "#70ad47");
    std::string name = w.ops[static_cast<size_t>(k.firstOp)].name;
    if (k.lastOp > k.firstOp) name += " .. " + w.ops[static_cast<size_t>(k.lastOp)].name;
    s << "<rect x=\"" << fixed(x, 2) << "\" y=\"" << fixed(top) << "\" width=\"" << fixed(wdt, 2) << "\" height=\""
      << fixed(laneH - 6) << "\" fill=\"" << fill << "\" stroke=\"white\" stroke-width=\"0.3\"><title>"
      << base::xmlEscaped(name) << ": " << fixed(k.startUs) << " .. " << fixed(k.endUs) << " us</title></rect>\n";
  }
  for (int c = 0; c < channels; ++c) {
    double y = top + laneH * (1 + c);
    s << "<text x=\"10\" y=\"" << fixed(y + laneH * 0.6) << "\">AllReduce"
      << (channels > 1 ? " " + std::to_string(c) : "") << "</text>\n";
  }
  for (size_t i = 0; i < buckets.buckets.size(); ++i) {
    const Bucket& b = buckets.buckets[i];
    double y = top + laneH * (1 + b.channel);
    double x = left + b.startUs * scale, wdt = std::max(0.5, (b.finishUs - b.startUs) * scale);
    const std::string& alg = cost.curves().at(static_cast<size_t>(b.algorithm)).name;
    const char* fill = kAlgorithmColours[static_cast<size_t>(b.algorithm) % 6];
    s << "<rect x=\"" << fixed(x, 2) << "\" y=\"" << fixed(y) << "\" width=\"" << fixed(wdt, 2) << "\" height=\""
      << fixed(laneH - 6) << "\" fill=\"" << fill << "\" stroke=\"black\" stroke-width=\"0.5\"><title>bucket " << i
      << ": tensors " << b.first << ".." << b.last << ", " << b.bytes << " B, " << base::xmlEscaped(alg) << ", "
      << fixed(b.startUs) << " .. " << fixed(b.finishUs) << " us</title></rect>\n";
    if (wdt > 24)
      s << "<text x=\"" << fixed(x + 3, 2) << "\" y=\"" << fixed(y + laneH * 0.55) << "\" font-size=\"10\">" << i
        << "</text>\n";
  }
  double axisY = top + laneH * (1 + channels) + 10;
  s << "<line x1=\"" << fixed(left) << "\" y1=\"" << fixed(axisY) << "\" x2=\"" << fixed(width - right) << "\" y2=\""
    << fixed(axisY) << "\" stroke=\"black\"/>\n";
  for (int t = 0; t <= 10; ++t) {
    double us = end * t / 10.0, x = left + us * scale;
    s << "<line x1=\"" << fixed(x, 2) << "\" y1=\"" << fixed(axisY) << "\" x2=\"" << fixed(x, 2) << "\" y2=\""
      << fixed(axisY + 5) << "\" stroke=\"black\"/>";
    s << "<text x=\"" << fixed(x, 2) << "\" y=\"" << fixed(axisY + 18) << "\" text-anchor=\"middle\">"
      << fixed(us / 1000.0, 2) << " ms</text>\n";
  }
  if (lowerBoundUs > 0) {
    double x = left + lowerBoundUs * scale;
    s << "<line x1=\"" << fixed(x, 2) << "\" y1=\"" << fixed(top - 4) << "\" x2=\"" << fixed(x, 2) << "\" y2=\""
      << fixed(axisY) << "\" stroke=\"red\" stroke-dasharray=\"4 3\"/>";
    s << "<text x=\"" << fixed(x - 4, 2) << "\" y=\"" << fixed(top - 6)
      << "\" text-anchor=\"end\" fill=\"red\">lower bound</text>\n";
  }
  double legendY = axisY + 38;
  double lx = left;
  auto legend = [&](const char* colour, const std::string& label) {
    s << "<rect x=\"" << fixed(lx) << "\" y=\"" << fixed(legendY - 10) << "\" width=\"12\" height=\"12\" fill=\""
      << colour << "\"/><text x=\"" << fixed(lx + 16) << "\" y=\"" << fixed(legendY) << "\">" << base::xmlEscaped(label)
      << "</text>\n";
    lx += 30 + 7.0 * static_cast<double>(label.size());
  };
  legend("#5b9bd5", "forward");
  legend("#70ad47", "backward");
  legend("#2e6da4", "fused forward");
  legend("#3d8b37", "fused backward");
  for (size_t a = 0; a < cost.curves().size(); ++a) legend(kAlgorithmColours[a % 6], cost.curves()[a].name);
  s << "</svg>\n";
  return s.str();
}

}  // namespace ccforge::plan
