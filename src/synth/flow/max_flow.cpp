#include "synth/flow/max_flow.hpp"

#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/push_relabel_max_flow.hpp>

#include <deque>
#include <stdexcept>

namespace ccforge::synth {

using Traits = boost::adjacency_list_traits<boost::vecS, boost::vecS, boost::directedS>;
using BoostGraph = boost::adjacency_list<
    boost::vecS, boost::vecS, boost::directedS, boost::no_property,
    boost::property<boost::edge_capacity_t, int64_t,
                    boost::property<boost::edge_residual_capacity_t, int64_t,
                                    boost::property<boost::edge_reverse_t, Traits::edge_descriptor>>>>;

struct FlowNetwork::Graph {
  explicit Graph(int32_t n) : g(static_cast<size_t>(n)) {}
  BoostGraph g;
};

FlowNetwork::FlowNetwork(int32_t vertices) : graph_(std::make_unique<Graph>(vertices)) {}
FlowNetwork::~FlowNetwork() = default;

void FlowNetwork::addEdge(int32_t from, int32_t to, int64_t capacity) {
  if (capacity < 0) throw std::logic_error("FlowNetwork: negative capacity");
  BoostGraph& g = graph_->g;
  auto forward = boost::add_edge(static_cast<size_t>(from), static_cast<size_t>(to), g).first;
  auto backward = boost::add_edge(static_cast<size_t>(to), static_cast<size_t>(from), g).first;
  boost::put(boost::edge_capacity, g, forward, capacity);
  boost::put(boost::edge_capacity, g, backward, 0);
  boost::put(boost::edge_reverse, g, forward, backward);
  boost::put(boost::edge_reverse, g, backward, forward);
}

int64_t FlowNetwork::maxFlow(int32_t source, int32_t sink) {
  return boost::push_relabel_max_flow(graph_->g, static_cast<size_t>(source), static_cast<size_t>(sink));
}

std::vector<bool> FlowNetwork::sourceSide(int32_t source) const {
  const BoostGraph& g = graph_->g;
  std::vector<bool> seen(boost::num_vertices(g), false);
  std::deque<size_t> queue{static_cast<size_t>(source)};
  seen[static_cast<size_t>(source)] = true;
  auto residual = boost::get(boost::edge_residual_capacity, g);
  while (!queue.empty()) {
    size_t v = queue.front();
    queue.pop_front();
    for (auto [it, end] = boost::out_edges(v, g); it != end; ++it) {
      size_t w = boost::target(*it, g);
      if (!seen[w] && residual[*it] > 0) {
        seen[w] = true;
        queue.push_back(w);
      }
    }
  }
  return seen;
}

}  // namespace ccforge::synth
