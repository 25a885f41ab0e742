// Writes a DOT picture in the format its file name asks for: .dot/.gv as text, .svg, .png and
// .pdf laid out and rendered by the Graphviz library (dot layout).
#pragma once

#include <filesystem>
#include <optional>
#include <string>

namespace ccforge::codegen {

enum class DotFormat { Dot, Svg, Png, Pdf };

std::optional<DotFormat> formatForPath(const std::filesystem::path& path);
// Throws std::runtime_error when Graphviz rejects the text or the file cannot be written.
void writePicture(const std::string& dot, DotFormat format, const std::filesystem::path& path);

}  // namespace ccforge::codegen
