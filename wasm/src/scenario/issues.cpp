#include "oblique/scenario/issues.hpp"

#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <utility>

#include "math/checks.hpp"
#include "math/utf8.hpp"

namespace oblique {

// ---- the list ----------------------------------------------------------------------------------------------

void IssueList::add(const std::string& pointer, const std::string& message) {
  if (list_.size() < kMaxIssues) {
    list_.push_back({pointer, message});
  } else {
    more_ = true;
  }
}

std::vector<Issue> IssueList::take() {
  if (more_) list_.push_back({"", "more issues not listed: check stops after " + std::to_string(kMaxIssues)});
  more_ = false;
  return std::move(list_);
}

bool IssueList::skipped(const std::string& pointer) const {
  // Marked itself, or one of its ancestors ("/contacts/0" holds "/contacts/0/body"); nothing is when no
  // value was left unread (every document the page writes).
  if (unread_.empty()) return false;
  std::string place = pointer;
  while (true) {
    if (unread_.count(place) > 0) return true;
    if (place.empty()) return false;
    const std::size_t slash = place.rfind('/');
    place.resize(slash == std::string::npos ? 0 : slash);
  }
}

std::string issue_text(const Issue& issue) {
  return issue.pointer.empty() ? issue.message : issue.pointer + ": " + issue.message;
}

void throw_first(const std::vector<Issue>& issues) {
  if (!issues.empty()) throw std::invalid_argument(issue_text(issues.front()));
}

// ---- places ------------------------------------------------------------------------------------------------

std::string child_path(PathStyle style, const std::string& path, std::string_view key) {
  if (style == PathStyle::Field) return path.empty() ? std::string(key) : path + "." + std::string(key);
  // RFC 6901: "~" → "~0", "/" → "~1".
  std::string out = path + "/";
  for (char c : key) {
    if (c == '~') {
      out += "~0";
    } else if (c == '/') {
      out += "~1";
    } else {
      out += c;
    }
  }
  return out;
}

std::string child_path(PathStyle style, const std::string& path, std::size_t index) {
  return style == PathStyle::Field ? path + "[" + std::to_string(index) + "]" : path + "/" + std::to_string(index);
}

// ---- user text in messages -------------------------------------------------------------------------------

namespace {

/// Characters escape_text writes as \uXXXX.
bool needs_escape(char32_t c) {
  return utf8::is_control(c) || utf8::is_line_separator(c) || utf8::is_bidi_control(c) || utf8::is_invisible(c);
}

void append_hex(std::string& out, const char* prefix, unsigned value, int digits) {
  char buffer[16];
  std::snprintf(buffer, sizeof buffer, "%s%0*x", prefix, digits, value);
  out += buffer;
}

}  // namespace

std::string escape_text(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    const std::size_t start = i;
    char32_t c = 0;
    // A byte that starts no UTF-8 character: its value.
    if (!utf8::decode(text, i, c)) {
      append_hex(out, "\\x", static_cast<unsigned char>(text[start]), 2);
      continue;
    }
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\t') {
      out += "\\t";
    } else if (c == '\r') {
      out += "\\r";
    } else if (needs_escape(c)) {
      // Beyond the BMP (tag characters): both halves, as JSON writes them.
      if (c > 0xFFFF) {
        const char32_t v = c - 0x10000;
        append_hex(out, "\\u", 0xD800 + static_cast<unsigned>(v >> 10), 4);
        append_hex(out, "\\u", 0xDC00 + static_cast<unsigned>(v & 0x3FF), 4);
      } else {
        append_hex(out, "\\u", static_cast<unsigned>(c), 4);
      }
    } else {
      out.append(text.substr(start, i - start));
    }
  }
  return out;
}

std::string quote(std::string_view text) {
  constexpr std::size_t kShown = 40;
  bool cut = false;
  if (text.size() > kShown) {
    std::size_t end = kShown;
    // Do not cut a UTF-8 sequence: back up to the start of a character.
    while (end > 0 && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80) --end;
    text = text.substr(0, end);
    cut = true;
  }
  return "\"" + escape_text(text) + (cut ? "…\"" : "\"");
}

bool is_showable_key(std::string_view key) {
  if (key.size() > 64) return false;
  for (std::size_t i = 0; i < key.size();) {
    char32_t c = 0;
    if (!utf8::decode(key, i, c) || needs_escape(c)) return false;
  }
  return true;
}

std::string show_number(double x) {
  if (std::isnan(x)) return "NaN";
  if (std::isinf(x)) return x > 0 ? "Infinity" : "-Infinity";
  if (std::floor(x) == x && std::abs(x) < 1e15) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.0f", x);
    return buffer;
  }
  return detail::format_number(x);
}

}  // namespace oblique
