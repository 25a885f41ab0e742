#include "topology/rational.hpp"

#include <cctype>

namespace ccforge::topo {
namespace {

bool allDigits(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s)
    if (!std::isdigit(static_cast<unsigned char>(c))) return false;
  return true;
}

BigInt digitsToInt(std::string_view s) {
  BigInt v = 0;
  for (char c : s) v = v * 10 + (c - '0');
  return v;
}

}  // namespace

std::optional<Rational> parseRational(std::string_view text) {
  bool negative = !text.empty() && text.front() == '-';
  if (negative) text.remove_prefix(1);
  Rational value;
  if (auto slash = text.find('/'); slash != std::string_view::npos) {
    std::string_view num = text.substr(0, slash), den = text.substr(slash + 1);
    if (!allDigits(num) || !allDigits(den)) return std::nullopt;
    BigInt d = digitsToInt(den);
    if (d == 0) return std::nullopt;
    value = Rational(digitsToInt(num), d);
  } else if (auto dot = text.find('.'); dot != std::string_view::npos) {
    std::string_view whole = text.substr(0, dot), fraction = text.substr(dot + 1);
    if (!allDigits(whole) || !allDigits(fraction)) return std::nullopt;
    BigInt scale = 1;
    for (size_t i = 0; i < fraction.size(); ++i) scale *= 10;
    value = Rational(digitsToInt(whole) * scale + digitsToInt(fraction), scale);
  } else {
    if (!allDigits(text)) return std::nullopt;
    value = Rational(digitsToInt(text));
  }
  return negative ? Rational(-value) : value;
}

std::string toString(const Rational& value) {
  BigInt num = boost::multiprecision::numerator(value), den = boost::multiprecision::denominator(value);
  if (den == 1) return num.str();
  std::string out = num.str();
  out += "/";
  out += den.str();
  return out;
}

std::string toFixed(const Rational& value, int digits) {
  BigInt scale = 1;
  for (int i = 0; i < digits; ++i) scale *= 10;
  bool negative = value < 0;
  Rational scaled = (negative ? Rational(-value) : value) * scale;
  BigInt num = boost::multiprecision::numerator(scaled), den = boost::multiprecision::denominator(scaled);
  BigInt rounded = (2 * num + den) / (2 * den);
  std::string text = rounded.str();
  if (digits > 0) {
    if (text.size() <= static_cast<size_t>(digits)) text.insert(0, static_cast<size_t>(digits) + 1 - text.size(), '0');
    text.insert(text.size() - static_cast<size_t>(digits), ".");
  }
  if (negative && rounded != 0) text.insert(0, "-");
  return text;
}

double toDouble(const Rational& value) { return value.convert_to<double>(); }

}  // namespace ccforge::topo
