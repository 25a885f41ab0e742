#include "cli/did_you_mean.hpp"

#include <algorithm>
#include <numeric>

namespace ccforge::cli {
namespace {

size_t editDistance(const std::string& a, const std::string& b) {
  std::vector<size_t> row(b.size() + 1);
  std::iota(row.begin(), row.end(), size_t{0});
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diagonal = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

std::vector<std::string> longOptionNames(const CLI::App& app) {
  std::vector<std::string> out;
  for (const CLI::Option* o : app.get_options())
    for (const std::string& name : o->get_lnames()) out.push_back("--" + name);
  return out;
}

}  // namespace

std::optional<std::string> nearestName(const std::string& word, const std::vector<std::string>& candidates) {
  const size_t allowed = std::max<size_t>(1, word.size() / 3);
  std::optional<std::string> best;
  size_t bestDistance = allowed + 1;
  for (const std::string& c : candidates)
    if (const size_t d = editDistance(word, c); d < bestDistance && c != word) {
      best = c;
      bestDistance = d;
    }
  return best;
}

std::vector<std::string> didYouMean(const CLI::App& app, const std::vector<std::string>& args) {
  std::vector<std::string> commands;
  for (const CLI::App* sub : app.get_subcommands({})) commands.push_back(sub->get_name());
  const CLI::App* command = nullptr;
  std::vector<std::string> hints;
  for (const std::string& a : args) {
    if (a.starts_with('-')) continue;
    if (const auto it = std::find(commands.begin(), commands.end(), a); it != commands.end()) {
      command = app.get_subcommand(a);
      break;
    }
    const std::optional<std::string> near = nearestName(a, commands);
    hints.push_back("'" + a + "' is not a ccforge command; " +
                    (near ? "did you mean '" + *near + "'?" : std::string("`ccforge --help` lists them")));
    break;  // the first word that is not an option is the command
  }
  std::vector<std::string> options = longOptionNames(app);
  if (command) {
    const std::vector<std::string> own = longOptionNames(*command);
    options.insert(options.end(), own.begin(), own.end());
  }
  for (const std::string& a : args) {
    if (a == "--") break;  // a script's own arguments follow
    if (a.rfind("--", 0) != 0) continue;
    const std::string name = a.substr(0, a.find('='));
    if (std::find(options.begin(), options.end(), name) != options.end()) continue;
    if (const std::optional<std::string> near = nearestName(name, options))
      hints.push_back("'" + name + "' is not an option" +
                      (command ? " of '" + command->get_name() + "'" : std::string()) + "; did you mean '" + *near +
                      "'?");
  }
  return hints;
}

}  // namespace ccforge::cli
