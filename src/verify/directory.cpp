#include "verify/directory.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <string_view>

namespace ccforge::verify {
namespace {

namespace fs = std::filesystem;

// Enough to see past a licence comment to the first element; a file whose first element lies
// further out is read whole and judged by the reader.
constexpr size_t kSniffBytes = 64 * 1024;

std::string shown(std::string_view text) {
  std::string s;
  for (char c : text.substr(0, 16)) s += std::isprint(static_cast<unsigned char>(c)) ? c : '.';
  return s;
}

// Whether the raw bytes (what the runtime reads: it inflates nothing) begin like an MSCCL-IR
// file: after a byte-order mark, blanks, comments, an XML declaration or a doctype, an <algo>
// element. A file that does is an algorithm file, and the reader reports what is wrong with it;
// one that does not is stray. Returns why it is stray.
std::optional<std::string> notAnAlgorithm(std::string_view text, bool complete) {
  if (text.empty()) return "it is empty";
  if (text.size() >= 2 && static_cast<unsigned char>(text[0]) == 0x1f && static_cast<unsigned char>(text[1]) == 0x8b)
    return "it is gzip-compressed, and the runtime reads files as plain text";
  size_t at = text.substr(0, 3) == "\xEF\xBB\xBF" ? 3 : 0;
  for (;;) {
    at = text.find_first_not_of(" \t\r\n", at);
    if (at == std::string_view::npos)
      return complete ? std::optional<std::string>("it holds only blanks") : std::nullopt;
    if (text[at] != '<')
      return fmt::format("it does not start with an XML element (it starts with \"{}\")", shown(text.substr(at)));
    std::string_view rest = text.substr(at);
    std::string_view close = rest.substr(0, 4) == "<!--" ? "-->"
                             : rest.substr(0, 2) == "<?" ? "?>"
                             : rest.substr(0, 2) == "<!" ? ">"
                                                         : "";
    if (close.empty()) break;
    size_t end = text.find(close, at + 2);
    if (end == std::string_view::npos) return std::nullopt;  // past the sniffed bytes: let the reader judge
    at = end + close.size();
  }
  std::string_view element = text.substr(at + 1);
  size_t nameEnd = element.find_first_of(" \t\r\n/>");
  if (nameEnd == std::string_view::npos) return std::nullopt;
  if (element.substr(0, nameEnd) == "algo") return std::nullopt;
  return fmt::format("its first element is <{}>, not <algo>", shown(element.substr(0, nameEnd)));
}

std::optional<std::string> strayReason(const fs::directory_entry& entry) {
  std::error_code ec;
  if (entry.symlink_status(ec).type() == fs::file_type::symlink) {
    const fs::file_status target = fs::status(entry.path(), ec);
    if (ec || !fs::exists(target)) return std::string("it is a symbolic link to nothing");
    if (!fs::is_regular_file(target)) return std::string("it is a symbolic link to something that is not a file");
  }
  std::ifstream in(entry.path(), std::ios::binary);
  if (!in) return std::nullopt;  // the reader reports why it cannot be opened
  std::string text(kSniffBytes, '\0');
  in.read(text.data(), static_cast<std::streamsize>(text.size()));
  text.resize(static_cast<size_t>(in.gcount()));
  return notAnAlgorithm(text, in.eof());
}

}  // namespace

std::vector<DirectoryEntry> listAlgorithmDirectory(const std::string& directory, std::error_code& ec) {
  std::vector<DirectoryEntry> entries;
  fs::directory_iterator it(directory, ec), end;
  if (ec) return entries;
  for (; it != end; it.increment(ec)) {
    if (ec) return entries;
    const fs::file_type type = it->symlink_status(ec).type();
    if (ec) return entries;
    if (type == fs::file_type::regular || type == fs::file_type::symlink)
      entries.push_back({it->path().string(), strayReason(*it)});
  }
  std::sort(entries.begin(), entries.end(),
            [](const DirectoryEntry& a, const DirectoryEntry& b) { return a.path < b.path; });
  return entries;
}

}  // namespace ccforge::verify
