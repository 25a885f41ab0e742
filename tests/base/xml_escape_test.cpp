#include <catch2/catch.hpp>

#include "base/xml_escape.hpp"

TEST_CASE("xml escape: markup and folded whitespace become references, the rest stays") {
  CHECK(ccforge::base::xmlEscaped("a<b & \"c\">") == "a&lt;b &amp; &quot;c&quot;&gt;");
  CHECK(ccforge::base::xmlEscaped("line\nnext\r\ttab") == "line&#10;next&#13;&#9;tab");
  CHECK(ccforge::base::xmlEscaped("ring 'x' \xc3\xa9") == "ring 'x' \xc3\xa9");
  CHECK(ccforge::base::xmlEscaped("").empty());
}
