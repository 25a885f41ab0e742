#include <catch2/catch.hpp>
#include <zlib.h>

#include <filesystem>
#include <fstream>

#include "base/input_error.hpp"
#include "base/load_file.hpp"
#include "support/temp_dir.hpp"

using namespace ccforge;
namespace fs = std::filesystem;

namespace {

void writeGzip(const fs::path& p, const std::string& content) {
  gzFile f = gzopen(p.c_str(), "wb");
  gzwrite(f, content.data(), static_cast<unsigned>(content.size()));
  gzclose(f);
}

}  // namespace

TEST_CASE("gzip input is inflated transparently") {
  test::TempDir dir("load");
  writeGzip(dir.path / "a.xml.gz", "<algo/>");
  CHECK(base::loadFile(dir.path / "a.xml.gz") == "<algo/>");
  std::ofstream(dir.path / "plain.xml") << "<algo/>";
  CHECK(base::loadFile(dir.path / "plain.xml") == "<algo/>");
}

TEST_CASE("a gzip bomb stops at the size cap") {
  test::TempDir dir("load");
  writeGzip(dir.path / "bomb.gz", std::string(8 << 20, 'a'));
  CHECK(fs::file_size(dir.path / "bomb.gz") < 100000);
  CHECK_THROWS_WITH(base::loadFile(dir.path / "bomb.gz", 1 << 20), Catch::Contains("larger than 1 MiB once inflated"));
  CHECK(base::loadFile(dir.path / "bomb.gz", 8 << 20).size() == (8u << 20));
}

TEST_CASE("truncated gzip, missing files and directories are input errors") {
  test::TempDir dir("load");
  writeGzip(dir.path / "t.gz", std::string(100000, 'x') + "<algo/>");
  std::string bytes;
  {
    std::ifstream in(dir.path / "t.gz", std::ios::binary);
    bytes.assign(std::istreambuf_iterator<char>(in), {});
  }
  std::ofstream(dir.path / "cut.gz", std::ios::binary) << bytes.substr(0, bytes.size() / 2);
  CHECK_THROWS_WITH(base::loadFile(dir.path / "cut.gz"), Catch::Contains("truncated gzip"));
  CHECK_THROWS_WITH(base::loadFile(dir.path / "nope.xml"), Catch::Contains("no such file"));
  CHECK_THROWS_WITH(base::loadFile(dir.path), Catch::Contains("is a directory"));
  CHECK_THROWS_AS(base::loadFile("/dev/null/x"), base::InputError);
}
