#include "base/svg_to_png.hpp"

#include <fmt/format.h>

#include <chrono>
#include <stdexcept>

#include "base/bounded_process.hpp"
#include "base/output_file.hpp"

namespace ccforge::base {

std::string svgToPng(const std::string& svgPath, const std::string& pngPath) {
  constexpr std::chrono::seconds kLimit{30};
  try {
    // Rendered beside the target and renamed over it: a failed or stopped rsvg-convert leaves no
    // partial picture.
    replaceOutputFile(pngPath, [&](const std::filesystem::path& temporary) {
      const base::ProcessOutcome r = base::runBounded({"rsvg-convert", "-o", temporary.string(), svgPath}, "", kLimit);
      using Kind = base::ProcessOutcome::Kind;
      if (r.kind == Kind::NotStarted)
        throw std::runtime_error("rsvg-convert is not installed (Debian: librsvg2-bin); only the SVG is written");
      if (r.kind == Kind::TimedOut)
        throw std::runtime_error(fmt::format("rsvg-convert took more than {} s and was stopped", kLimit.count()));
      if (r.kind == Kind::Signalled) throw std::runtime_error("rsvg-convert was killed by a signal");
      if (r.code != 0) throw std::runtime_error(fmt::format("rsvg-convert failed (exit {})", r.code));
    });
  } catch (const std::exception& e) {
    return e.what();
  }
  return "";
}

}  // namespace ccforge::base
