// The DOT views are checked structurally (parsed back with Graphviz's cgraph) and rendered.
#include <catch2/catch.hpp>

#include <graphviz/cgraph.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <set>
#include <sstream>

#include "viz/dot_render.hpp"
#include "viz/dot_views.hpp"
#include "viz/finding_highlights.hpp"
#include "compile_support.hpp"
#include "fused_library.hpp"

using namespace ccforge;
using viz::DotFilter;

namespace {

// What is drawn: invisible layout helpers (rank anchors and the edges that hold the layers) left out.
struct Parsed {
  int nodes = 0;
  int edges = 0;
  std::set<std::string> clusters;
  std::set<std::string> labels;
  std::set<std::string> redNodes;
  int redEdges = 0;
  std::string graphLabel;
};

bool invisible(void* object) {
  const char* style = agget(object, const_cast<char*>("style"));
  return style && std::string(style).find("invis") != std::string::npos;
}

void collectClusters(Agraph_t* g, std::set<std::string>& out) {
  for (Agraph_t* s = agfstsubg(g); s; s = agnxtsubg(s)) {
    if (std::string(agnameof(s)).starts_with("cluster")) out.insert(agnameof(s));
    collectClusters(s, out);
  }
}

Parsed parse(const std::string& dot) {
  std::unique_ptr<Agraph_t, decltype(&agclose)> g(agmemread(dot.c_str()), agclose);
  REQUIRE(g);
  Parsed p;
  p.graphLabel = agget(g.get(), const_cast<char*>("label"));
  for (Agnode_t* n = agfstnode(g.get()); n; n = agnxtnode(g.get(), n)) {
    for (Agedge_t* e = agfstout(g.get(), n); e; e = agnxtout(g.get(), e)) {
      if (invisible(e)) continue;
      ++p.edges;
      if (std::string(agget(e, const_cast<char*>("color"))) == "red") ++p.redEdges;
    }
    if (invisible(n)) continue;
    ++p.nodes;
    const std::string label = agget(n, const_cast<char*>("label"));
    p.labels.insert(label);
    if (std::string(agget(n, const_cast<char*>("fillcolor"))) == "red") p.redNodes.insert(label);
  }
  collectClusters(g.get(), p.clusters);
  return p;
}

ir::Algorithm ring4() { return testing::compileVerified("ring-allreduce", {"ranks=4"}).algorithm; }

}  // namespace

TEST_CASE("thread-block view: a cluster per GPU, one per thread block, steps in order, sends paired with receives") {
  const ir::Algorithm a = ring4();
  const Parsed p = parse(viz::toDot(viz::threadBlockModel(a), DotFilter{}));
  CHECK(p.nodes == 28);  // 7 steps on each of 4 ranks
  // 6 program-order edges per thread block, and every rank sends 6 times (s, rrs, rrs, rrcs, rcs, rcs).
  CHECK(p.edges == 4 * 6 + 4 * 6);
  CHECK(p.clusters == std::set<std::string>{"cluster_r0", "cluster_r0_t0", "cluster_r1", "cluster_r1_t0", "cluster_r2",
                                            "cluster_r2_t0", "cluster_r3", "cluster_r3_t0"});
  CHECK(p.labels.count("3: rrcs i[1]") == 1);
}

TEST_CASE("thread-block view: dependency waits are edges") {
  // Recursive doubling (8 ranks) waits across thread blocks: every nop and waiting step has an edge.
  const ir::Algorithm a = testing::compileVerified("recursive-doubling-allgather", {"ranks=8"}).algorithm;
  size_t waits = 0;
  for (const ir::Gpu& g : a.gpus)
    for (const ir::ThreadBlock& tb : g.threadBlocks)
      for (const ir::Step& s : tb.steps) waits += s.depid >= 0;
  REQUIRE(waits > 0);
  const viz::DotModel m = viz::threadBlockModel(a);
  size_t waitEdges = 0;
  for (const viz::DotEdge& e : m.edges) waitEdges += e.kind == viz::DotEdgeKind::Wait;
  CHECK(waitEdges == waits);
}

TEST_CASE("filters: one rank keeps the far ends of its communication, faded") {
  const ir::Algorithm a = ring4();
  DotFilter f;
  f.rank = 0;
  const Parsed p = parse(viz::toDot(viz::threadBlockModel(a), f));
  CHECK(p.nodes == 7 + 12);  // its 7 steps, 6 receivers on rank 1 and 6 senders on rank 3
  CHECK(p.edges == 6 + 12);
  CHECK(p.clusters.count("cluster_r2") == 0);
}

TEST_CASE("filters: one chunk follows it around the ring") {
  // Chunk 0: sent by rank 0, reduced on 1 and 2, completed on 3, then forwarded 0 -> 1 -> 2.
  const ir::Algorithm a = ring4();
  DotFilter f;
  f.chunk = 0;
  const Parsed p = parse(viz::toDot(viz::threadBlockModel(a), f));
  CHECK(p.nodes == 7);
  CHECK(p.edges == 6);
  CHECK(p.labels == std::set<std::string>{"0: s i[0]", "1: rrs i[0]", "2: rrs i[0]", "3: rrcs i[0]", "4: rcs -> i[0]",
                                          "5: rcs -> i[0]", "6: r -> i[0]"});
}

TEST_CASE("filters: the neighbourhood of a step") {
  const ir::Algorithm a = ring4();
  DotFilter f;
  f.around = viz::nodeOfStep(a, {0, 0, 3});
  f.radius = 1;
  const Parsed p = parse(viz::toDot(viz::threadBlockModel(a), f));
  // The step, its neighbours in program order (steps 2 and 4), its sender on rank 3 and its
  // receiver on rank 1; plus the far ends of their own communication edges.
  for (const char* label : {"3: rrcs i[1]", "2: rrs i[2]", "4: rcs -> i[0]"}) CHECK(p.labels.count(label) == 1);
  CHECK(p.clusters.count("cluster_r3") == 1);
  CHECK(p.clusters.count("cluster_r1") == 1);
  CHECK(p.nodes < 28);
}

TEST_CASE("a view over the node cap is refused with a message saying how to narrow it") {
  const ir::Algorithm a = ring4();
  DotFilter f;
  f.maxNodes = 10;
  CHECK_THROWS_AS(viz::toDot(viz::threadBlockModel(a), f), viz::DotTooLarge);
  CHECK_THROWS_WITH(viz::toDot(viz::threadBlockModel(a), f),
                    Catch::Contains("28 nodes, over the cap of 10") && Catch::Contains("--rank, --chunk or --around"));
}

TEST_CASE("highlights: a deadlock cycle's steps turn red and are joined in a cycle") {
  const ir::Algorithm a = ring4();
  viz::DotModel m = viz::threadBlockModel(a);
  const std::vector<viz::StepId> missing =
      viz::highlight(m, a,
                     {viz::HighlightGroup{{{0, 0, 1}, {1, 0, 1}, {2, 0, 1}, {3, 0, 1}}, true},
                      viz::HighlightGroup{{{0, 0, 99}}, false}});
  REQUIRE(missing.size() == 1);
  CHECK(missing[0].step == 99);
  const Parsed p = parse(viz::toDot(m, DotFilter{}));
  CHECK(p.redNodes.size() == 4);
  CHECK(p.redEdges == 4);
}

TEST_CASE("highlights: a witness's schedule, the steps where blocks wait and a finding's steps are drawn distinctly") {
  const ir::Algorithm a = ring4();
  viz::DotModel m = viz::threadBlockModel(a);
  viz::highlight(m, a,
                 {viz::HighlightGroup{{{0, 0, 0}, {1, 0, 1}}, false, viz::NodeMark::Witness},
                  viz::HighlightGroup{{{2, 0, 3}}, false, viz::NodeMark::Blocked},
                  viz::HighlightGroup{{{1, 0, 1}, {3, 0, 5}}, false, viz::NodeMark::Finding}});
  const std::string dot = viz::toDot(m, DotFilter{});
  CHECK(dot.find("label=\"0: s i[0]\", fillcolor=gold") != std::string::npos);                 // witness only
  CHECK(dot.find("label=\"3: rrcs i[3]\", fillcolor=white, color=red") != std::string::npos);  // blocked
  CHECK(dot.find("label=\"1: rrs i[0]\", fillcolor=red") !=
        std::string::npos);  // witness and finding: the finding wins
  CHECK(dot.find("color=goldenrod, penwidth=3") != std::string::npos);
  CHECK(dot.find("color=red, penwidth=3, constraint=false") != std::string::npos);
  const Parsed p = parse(dot);
  for (const char* meaning : {"a step the witness runs", "blocked: where a deadlocked thread block waits",
                              "a step a finding names", "the SMT witness", "a finding: deadlock cycle"})
    CHECK(p.graphLabel.find(meaning) != std::string::npos);
}

TEST_CASE("legend: it explains exactly the kinds of edges and marks drawn") {
  const Parsed ring = parse(viz::toDot(viz::threadBlockModel(ring4()), DotFilter{}));
  CHECK(ring.graphLabel.find("program order in a thread block") != std::string::npos);
  CHECK(ring.graphLabel.find("a send and the receive it pairs with") != std::string::npos);
  CHECK(ring.graphLabel.find("false dependency") == std::string::npos);
  CHECK(ring.graphLabel.find("outside the view") == std::string::npos);
  CHECK(ring.graphLabel.find("witness") == std::string::npos);

  const dsl::Program prog = algorithms::instantiate("ring-allreduce", {"ranks=3"}).program;
  const Parsed dag = parse(viz::toDot(viz::chunkDagModel(prog), DotFilter{}));
  CHECK(dag.graphLabel.find("reads what the other wrote") != std::string::npos);
  CHECK(dag.graphLabel.find("false dependency: overwrites what the other read or wrote") != std::string::npos);
  CHECK(dag.graphLabel.find("program order") == std::string::npos);

  DotFilter one;
  one.rank = 0;
  const Parsed rank0 = parse(viz::toDot(viz::threadBlockModel(ring4()), one));
  CHECK(rank0.graphLabel.find("outside the view") != std::string::npos);
}

TEST_CASE("narrowing: past 4 ranks an unfiltered view shows one rank and says how to widen it") {
  const ir::Algorithm a = testing::compileVerified("ring-allreduce", {"ranks=8"}).algorithm;
  viz::DotModel m = viz::threadBlockModel(a);
  const DotFilter narrowed = viz::legibleFilter(m, DotFilter{}, false);
  REQUIRE(narrowed.rank);
  CHECK(*narrowed.rank == 0);
  CHECK(narrowed.note.find("rank 0 of 8 ranks") != std::string::npos);
  CHECK(narrowed.note.find("--all-ranks") != std::string::npos);
  CHECK(parse(viz::toDot(m, narrowed)).graphLabel.find("rank 0 of 8 ranks") != std::string::npos);

  CHECK_FALSE(viz::legibleFilter(m, DotFilter{}, true).rank);  // --all-ranks
  DotFilter chosen;
  chosen.chunk = 2;
  CHECK_FALSE(viz::legibleFilter(m, chosen, false).rank);                                    // the user chose a view
  CHECK_FALSE(viz::legibleFilter(viz::threadBlockModel(ring4()), DotFilter{}, false).rank);  // 4 ranks: all drawn

  viz::highlight(m, a, {viz::HighlightGroup{{{5, 0, 2}}, false, viz::NodeMark::Finding}});
  CHECK(*viz::legibleFilter(m, DotFilter{}, false).rank == 5);  // the rank with the finding
}

TEST_CASE("layout: Graphviz places the rank clusters left to right in rank order") {
  // The ring's sends cross from rank 3 back to rank 0; without the layout's precautions
  // Graphviz puts rank 1 left of rank 0 to cross fewer edges. Recursive doubling on 8 ranks
  // (drawn whole, as --all-ranks does) swapped ranks 3 and 4 with only the layers held.
  // A model refers to the algorithm or program it was built from: all live through the loop.
  const ir::Algorithm ring = ring4();
  const algorithms::Instance ringProgram = algorithms::instantiate("ring-allreduce", {"ranks=4"});
  const algorithms::Instance doubling = algorithms::instantiate("recursive-doubling-allgather", {"ranks=8"});
  const ir::Algorithm doublingIr = codegen::compile(doubling.program).algorithm;
  for (const viz::DotModel& m : {viz::threadBlockModel(ring), viz::chunkDagModel(ringProgram.program),
                                 viz::threadBlockModel(doublingIr), viz::chunkDagModel(doubling.program)}) {
    const std::filesystem::path file = std::filesystem::temp_directory_path() / "ccforge_dot_order_test.dot";
    std::ofstream(file) << viz::toDot(m, DotFilter{});
    const std::string command = "dot -Tplain " + file.string();
    std::unique_ptr<FILE, decltype(&pclose)> pipe(popen(command.c_str(), "r"), pclose);
    REQUIRE(pipe);
    std::map<int32_t, double> leftmost;  // rank -> smallest x of its nodes
    char line[4096];
    while (fgets(line, sizeof line, pipe.get())) {
      std::istringstream in(line);
      std::string kind, name;
      double x = 0;
      if (!(in >> kind >> name >> x) || kind != "node" || name[0] != 'n') continue;
      const int32_t rank = m.nodes[static_cast<size_t>(std::stoi(name.substr(1)))].rank;
      leftmost[rank] = leftmost.count(rank) ? std::min(leftmost[rank], x) : x;
    }
    std::set<int32_t> ranks;
    for (const viz::DotNode& d : m.nodes) ranks.insert(d.rank);
    REQUIRE(leftmost.size() == ranks.size());
    for (auto it = leftmost.begin(); std::next(it) != leftmost.end(); ++it) {
      INFO(m.title << ": rank " << it->first << " at x " << it->second << ", rank " << std::next(it)->first << " at x "
                   << std::next(it)->second);
      CHECK(it->second < std::next(it)->second);
    }
  }
}

TEST_CASE(
    "highlights of findings: errors with steps, deadlocks closed, and a witness's steps once each, then where blocks "
    "wait") {
  verify::Violation cycle;
  cycle.rule = "deadlock.cycle";
  cycle.steps = {verify::StepRef{0, 0, 1, 0, {}, ""}, verify::StepRef{1, 0, 1, 0, {}, ""}};
  verify::Violation race = cycle;
  race.rule = "race.write-read";
  verify::Violation warning = cycle;
  warning.severity = verify::Severity::Warning;
  verify::Violation stepless;
  stepless.rule = "limits.channels";
  const std::vector<viz::HighlightGroup> groups = viz::highlightsOf({cycle, warning, stepless, race});
  REQUIRE(groups.size() == 2);
  CHECK(groups[0].cycle);
  CHECK_FALSE(groups[1].cycle);
  CHECK(groups[1].steps.size() == 2);
  CHECK(groups[1].steps[1].rank == 1);

  verify::Witness w;
  w.schedule = {{0, 0, 0, 0, 0, "", -1}, {0, 0, 0, 1, 0, "", -1}, {1, 0, 0, 0, 0, "", -1}, {0, 0, 0, 2, 0, "", -1}};
  w.blocked = {verify::StepRef{0, 1, 2, 0, {}, ""}, verify::StepRef{1, 1, 0, 0, {}, ""}};
  const std::vector<viz::HighlightGroup> schedule = viz::highlightsOf(w);
  REQUIRE(schedule.size() == 3);
  REQUIRE(schedule[0].steps.size() == 3);  // rank 0's step 0 twice in a row counts once; later again
  CHECK(schedule[0].steps[1].rank == 1);
  CHECK(schedule[0].steps[2].rank == 0);
  CHECK_FALSE(schedule[0].cycle);
  CHECK(schedule[1].steps.size() == 1);
  CHECK(schedule[1].steps[0].tb == 1);
  CHECK(schedule[2].steps[0].rank == 1);
}

TEST_CASE("chunk DAG: one node per DSL operation, dependencies point forward") {
  const dsl::Program prog = algorithms::instantiate("ring-allreduce", {"ranks=3"}).program;
  const viz::DotModel m = viz::chunkDagModel(prog);
  CHECK(m.nodes.size() == 12);  // 3 chunks x (2 reductions + 2 copies)
  size_t trueEdges = 0;
  for (const viz::DotEdge& e : m.edges) {
    CHECK(e.from < e.to);
    trueEdges += e.kind == viz::DotEdgeKind::TrueDependency;
  }
  CHECK(trueEdges == 9);  // each chunk's 4 operations form a chain
  const Parsed p = parse(viz::toDot(m, DotFilter{}));
  CHECK(p.labels.count("0: reduce r0 i[0] -> r1 i[0] ch0") == 1);
}

TEST_CASE("instruction DAG: fused instructions with their communication edges") {
  const dsl::Program prog = algorithms::instantiate("ring-allreduce", {"ranks=4"}).program;
  const viz::DotModel m = viz::instructionDagModel(prog, semantics::executorProfile());
  CHECK(m.nodes.size() == 28);
  size_t comm = 0;
  for (const viz::DotEdge& e : m.edges) comm += e.kind == viz::DotEdgeKind::Communication;
  CHECK(comm == 24);
}

TEST_CASE("Graphviz's dot renders the views to SVG and PNG") {
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / "ccforge_dot_test";
  std::filesystem::create_directories(dir);
  const std::string dot = viz::toDot(viz::threadBlockModel(ring4()), DotFilter{});
  viz::writePicture(dot, viz::DotFormat::Svg, dir / "ring.svg");
  viz::writePicture(dot, viz::DotFormat::Png, dir / "ring.png");
  std::ifstream svg(dir / "ring.svg");
  std::stringstream text;
  text << svg.rdbuf();
  CHECK_THAT(text.str(), Catch::Contains("<svg") && Catch::Contains("rrcs"));
  std::ifstream png(dir / "ring.png", std::ios::binary);
  char magic[4] = {};
  png.read(magic, 4);
  CHECK(std::string(magic + 1, 3) == "PNG");
  CHECK(viz::formatForPath("x.gv") == viz::DotFormat::Dot);
  CHECK_FALSE(viz::formatForPath("x.jpeg").has_value());
  CHECK_THROWS_WITH(viz::writePicture("digraph {", viz::DotFormat::Svg, dir / "broken.svg"),
                    Catch::Contains("could not render"));
  std::filesystem::remove_all(dir);
}

TEST_CASE("thread-block view: compute steps of a fused program are blue boxes labelled with their rows") {
  algorithms::FusedParameters f;
  f.op = ir::ComputeOp::Gemv;
  f.ranks = 2;
  f.chunksPerRank = 1;
  f.rows = 8;
  f.inner = 4;
  const std::string dot = viz::toDot(viz::threadBlockModel(algorithms::fusedProgram(f)), DotFilter{});
  CHECK(dot.find("\"0: gemv rows 0..3 -> i[0]\", shape=box, style=\"filled\", fillcolor=lightskyblue") !=
        std::string::npos);
  CHECK(dot.find("\"1: gemv rows 4..7 -> i[1]\", shape=box, style=\"filled\", fillcolor=lightskyblue") !=
        std::string::npos);
}
