// A structure-aware mutator for JSON inputs (libFuzzer's LLVMFuzzerCustomMutator): most byte-level
// mutations of a scenario make it malformed JSON or an invalid scenario, so the simulator would rarely
// run. When the input parses, this mutates one node of its tree instead — a number scaled, negated or set
// to an edge value, a string replaced by another of the document (names refer to each other) or by a
// keyword, an array element duplicated, dropped or swapped, an object key dropped, copied from another
// object, or set to a field of the format that switches a feature on ("collide": "all", "mu", "stick",
// "collides", "e": automatic contacts and friction, whatever the seeds hold) — and writes it back.
// Otherwise, and in a share of the cases, it leaves the bytes to libFuzzer's own mutations (with the
// dictionary), so that the text readers keep their share of malformed input.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

extern "C" std::size_t LLVMFuzzerMutate(std::uint8_t* data, std::size_t size, std::size_t max_size);

namespace oblique::fuzz {

namespace detail {

using Tree = nlohmann::ordered_json;

/// Every node of `node` (itself included), depth first, up to `limit` nodes.
inline void collect(Tree& node, std::vector<Tree*>& nodes, std::size_t limit) {
  if (nodes.size() >= limit) return;
  nodes.push_back(&node);
  if (node.is_structured()) {
    for (Tree& child : node) collect(child, nodes, limit);
  }
}

/// Values a scenario's numbers are often compared with: zero, units, the limits and beyond.
inline double edge_number(std::minstd_rand& rng) {
  static const double kEdges[] = {0.0,  -0.0,  1.0,  -1.0,  0.5,   2.0,    1e-6, 1e-13, 1e-300, 5e-324,
                                  1e6,  1e12,  1e300, 1e308, -1e308, 3600.0, 64.0, 65.0,  0.1,    3.0};
  return kEdges[rng() % (sizeof kEdges / sizeof kEdges[0])];
}

/// Strings the scenario format gives a meaning to.
inline const char* keyword(std::minstd_rand& rng) {
  static const char* const kKeywords[] = {"disk", "box", "rod", "point", "wheel", "pin", "distance", "slider",
                                          "weld", "body_plane", "disk_disk", "rope", "world", "all", "declared",
                                          "NaN", "Infinity", "-Infinity", "", "#d04030"};
  return kKeywords[rng() % (sizeof kKeywords / sizeof kKeywords[0])];
}

/// A field of the format that switches a feature on, with a value: automatic contacts on the document, friction
/// and the collision filter on a body or a contact, a restitution anywhere.
inline void set_feature(Tree& node, std::minstd_rand& rng) {
  switch (rng() % 6) {
    case 0: node["collide"] = rng() % 4 == 0 ? "declared" : "all"; break;
    case 1: node["mu"] = rng() % 3 == 0 ? edge_number(rng) : static_cast<double>(rng() % 9) / 8.0; break;
    case 2: node["stick"] = rng() % 2 == 0; break;
    case 3: node["collides"] = rng() % 3 != 0; break;
    case 4: node["e"] = static_cast<double>(rng() % 5) / 4.0; break;
    default: node["gravity"] = rng() % 2 == 0 ? Tree::array({0.0, 0.0}) : Tree::array({0.0, -9.81}); break;
  }
}

/// Mutates `node` in place; `nodes` is every node of the tree (to borrow strings and members from).
inline void mutate_node(Tree& node, const std::vector<Tree*>& nodes, std::minstd_rand& rng) {
  if (node.is_number()) {
    const double x = node.get<double>();
    switch (rng() % 6) {
      case 0: node = x * 2.0; break;
      case 1: node = x / 2.0; break;
      case 2: node = -x; break;
      case 3: node = x + (static_cast<double>(rng() % 2001) - 1000.0) / 1000.0; break;
      case 4: node = static_cast<int>(rng() % 11) - 2; break;
      default: node = edge_number(rng); break;
    }
  } else if (node.is_string()) {
    // Another string of the document (a name another field refers to), or a keyword.
    std::vector<const Tree*> strings;
    for (const Tree* other : nodes) {
      if (other->is_string()) strings.push_back(other);
    }
    Tree replacement = rng() % 2 == 0 && !strings.empty() ? *strings[rng() % strings.size()] : Tree(keyword(rng));
    node = std::move(replacement);
  } else if (node.is_boolean()) {
    node = !node.get<bool>();
  } else if (node.is_array() && !node.empty()) {
    const std::size_t i = rng() % node.size();
    switch (rng() % 3) {
      case 0: {
        Tree copy = node[i];  // copied first: the push may move the elements
        node.push_back(std::move(copy));
        break;
      }
      case 1: node.erase(i); break;
      default: std::swap(node[i], node[rng() % node.size()]); break;
    }
  } else if (node.is_object()) {
    // Drop a key, switch a feature on, or copy a member of another object (e.g. "stick": true onto a contact).
    const unsigned choice = rng() % 3;
    if (choice == 2) {
      set_feature(node, rng);
    } else if (choice == 0 && !node.empty()) {
      auto it = node.begin();
      std::advance(it, static_cast<long>(rng() % node.size()));
      node.erase(it);
    } else {
      std::vector<const Tree*> objects;
      for (const Tree* other : nodes) {
        if (other->is_object() && !other->empty() && other != &node) objects.push_back(other);
      }
      if (objects.empty()) return;
      const Tree& source = *objects[rng() % objects.size()];
      auto it = source.begin();
      std::advance(it, static_cast<long>(rng() % source.size()));
      // Copied first: the source may live inside `node`, which the insertion may move.
      std::string key = it.key();
      Tree value = it.value();
      node[key] = std::move(value);
    }
  } else if (node.is_null()) {
    node = edge_number(rng);
  }
}

}  // namespace detail

/// The custom mutator: a structural mutation of parsed JSON (mostly), or libFuzzer's own on the bytes.
/// `byte_share` in [0, 1] is how often the bytes are mutated even when the input parses.
inline std::size_t mutate_json(std::uint8_t* data, std::size_t size, std::size_t max_size, unsigned int seed,
                               double byte_share) {
  std::minstd_rand rng(seed == 0 ? 1u : seed);
  const bool bytes = static_cast<double>(rng() % 1000) < byte_share * 1000.0;
  detail::Tree tree = bytes ? detail::Tree(detail::Tree::value_t::discarded)
                            : detail::Tree::parse(data, data + size, nullptr, false);
  if (tree.is_discarded()) return LLVMFuzzerMutate(data, size, max_size);

  // One to three node mutations, then back to text if it fits.
  const int rounds = 1 + static_cast<int>(rng() % 3);
  for (int round = 0; round < rounds; ++round) {
    std::vector<detail::Tree*> nodes;
    detail::collect(tree, nodes, 4096);
    detail::mutate_node(*nodes[rng() % nodes.size()], nodes, rng);
  }
  const std::string text = tree.dump();
  if (text.size() > max_size) return LLVMFuzzerMutate(data, size, max_size);
  std::memcpy(data, text.data(), text.size());
  return text.size();
}

}  // namespace oblique::fuzz
