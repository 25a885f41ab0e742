// Writing a DOT picture for `dot` and `topo dot`: the format follows the extension of -o
// (.dot/.gv text; .svg, .png, .pdf rendered by Graphviz's dot program), written to a temporary
// file and renamed, so that a failure leaves no partial picture.
#pragma once

#include <stdexcept>
#include <string>

#include "base/output_file.hpp"
#include "viz/dot_render.hpp"

namespace ccforge::cli {

// Throws std::invalid_argument for an extension without a format, OutputError when the
// picture cannot be written or rendered.
inline void writePictureFile(const std::string& dot, const std::string& path) {
  const std::optional<viz::DotFormat> format = viz::formatForPath(path);
  if (!format) throw std::invalid_argument("-o " + path + ": the extension must be .dot, .gv, .svg, .png or .pdf");
  base::replaceOutputFile(path, [&](const std::filesystem::path& tmp) {
    try {
      viz::writePicture(dot, *format, tmp);
    } catch (const std::runtime_error& e) {
      throw base::OutputError(std::string(e.what()).find(tmp.string()) == std::string::npos
                                  ? std::string(e.what()) + " (" + path + ")"
                                  : "cannot write " + path);
    }
  });
}

}  // namespace ccforge::cli
