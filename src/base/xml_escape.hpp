// Free text inside XML, SVG and Graphviz's HTML-like labels: the markup characters and the
// whitespace an attribute would otherwise fold (newline, carriage return, tab) as references, so
// that a reader gets the text back exactly.
#pragma once

#include <string>
#include <string_view>

namespace ccforge::base {

std::string xmlEscaped(std::string_view text);

}  // namespace ccforge::base
