// Problems found in an input, each with where it is and what is wrong; shared by the JSON readers
// (json_reader.hpp) and the checks of a Scenario's values (scenario_check.hpp). No JSON library here: the
// model layer reports its problems with the same pointers as the document readers.
//
// A place is written as an RFC 6901 JSON pointer ("/bodies/2/mass"; "~" in a key is "~0", "/" is "~1"; ""
// is the whole document), or, for documents whose users name fields the way they write them (the impact
// document: "M[1][0]"), as a field path. Messages are one line; user text inside them goes through
// quote(), which escapes what could not be shown safely.
#pragma once

#include <cstddef>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace oblique {

/// One problem: where (a JSON pointer, or a field path) and what.
struct Issue {
  std::string pointer;
  std::string message;
};

/// Most issues a check lists; then one more, at "", says that more were not listed.
inline constexpr std::size_t kMaxIssues = 100;

/// A bounded list of issues, in the order they are found.
class IssueList {
 public:
  /// Adds an issue, unless kMaxIssues are listed already (then only notes that there were more).
  void add(const std::string& pointer, const std::string& message);
  bool empty() const { return list_.empty(); }
  /// No more issues will be listed: work that only builds messages can stop.
  bool full() const { return list_.size() >= kMaxIssues; }
  /// The issues, with the "more issues not listed" note when some were not.
  std::vector<Issue> take();

  /// Records that the value at `pointer` could not be read (a wrong type, an unknown name): its struct
  /// field kept its default, so checks of values skip rules that involve it (see skipped()).
  void mark_unread(const std::string& pointer) { unread_.insert(pointer); }
  /// True when `pointer`, or a value that contains it, was marked unread.
  bool skipped(const std::string& pointer) const;

 private:
  std::vector<Issue> list_;
  bool more_ = false;
  std::set<std::string> unread_;
};

/// "<pointer>: <message>", or just the message when the pointer is "" (the whole document).
std::string issue_text(const Issue& issue);

/// Throws std::invalid_argument with issue_text of the first issue, if there is one.
void throw_first(const std::vector<Issue>& issues);

/// How a reader writes the place of a value.
enum class PathStyle {
  Pointer,  ///< RFC 6901: "/bodies/0/mass"
  Field,    ///< "M[1][0]", "unilateral[2]" (the impact document)
};

/// The place of member `key` of the value at `path`.
std::string child_path(PathStyle style, const std::string& path, std::string_view key);
/// The place of item `index` of the array at `path`.
std::string child_path(PathStyle style, const std::string& path, std::size_t index);

/// RFC 6901 pointer helpers: pointer_child("/bodies", 2) == "/bodies/2", pointer_child("", "a/b") == "/a~1b".
inline std::string pointer_child(const std::string& pointer, std::string_view key) {
  return child_path(PathStyle::Pointer, pointer, key);
}
inline std::string pointer_child(const std::string& pointer, std::size_t index) {
  return child_path(PathStyle::Pointer, pointer, index);
}

/// `text` with what could not be shown safely on one line escaped: quotes and backslashes as in JSON,
/// control characters (C0, DEL, C1), line separators, bidirectional controls and invisible characters as
/// \uXXXX, and bytes that are not UTF-8 as \xNN. Everything else is kept.
std::string escape_text(std::string_view text);

/// A user string inside a message: escaped (escape_text), cut to 40 bytes with "…", in double quotes.
std::string quote(std::string_view text);

/// Whether `key` can appear in a pointer in a message as it is: at most 64 bytes of text that escape_text
/// leaves alone.
bool is_showable_key(std::string_view key);

/// A number for a message: whole numbers below 1e15 in full ("3600"), others in the shortest form that
/// reads back to the same double ("0.1", "1e-06", "1e+300"); NaN and infinities as "NaN", "Infinity",
/// "-Infinity" (the names the JS engine sends them by).
std::string show_number(double x);

}  // namespace oblique
