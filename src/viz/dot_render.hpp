// Writes a DOT picture in the format its file name asks for: .dot/.gv as text; .svg, .png and
// .pdf laid out and rendered by Graphviz's `dot` program (Debian package graphviz), run as a
// child process with a time limit, so that Graphviz's own faults stay out of this process.
#pragma once

#include <chrono>
#include <filesystem>
#include <optional>
#include <string>

namespace ccforge::viz {

enum class DotFormat { Dot, Svg, Png, Pdf };

std::optional<DotFormat> formatForPath(const std::filesystem::path& path);
// Throws std::runtime_error when `dot` is missing, fails, or runs longer than `limit`, or when
// the file cannot be written.
void writePicture(const std::string& dot, DotFormat format, const std::filesystem::path& path,
                  std::chrono::seconds limit = std::chrono::seconds(300));

}  // namespace ccforge::viz
