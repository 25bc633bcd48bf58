// UTF-8 decoding and the character classes the input rules use (private to the core).
//
// Decoding follows RFC 3629 strictly — no overlong forms, no surrogates (U+D800–U+DFFF), nothing above
// U+10FFFF — which is what nlohmann-json's writer and every browser's TextDecoder accept.
#pragma once

#include <cstddef>
#include <string_view>

namespace oblique::utf8 {

/// Decodes the character at s[i] into `cp` and advances `i` past it. On an ill-formed sequence returns
/// false and advances `i` by one byte (so that a caller can report or escape that byte and go on).
inline bool decode(std::string_view s, std::size_t& i, char32_t& cp) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char b0 = byte(i);
  if (b0 < 0x80) {
    cp = b0;
    ++i;
    return true;
  }
  // Length and the smallest code point of each length (to refuse overlong forms).
  std::size_t length = 0;
  char32_t smallest = 0;
  if ((b0 & 0xE0) == 0xC0) {
    length = 2, smallest = 0x80, cp = b0 & 0x1F;
  } else if ((b0 & 0xF0) == 0xE0) {
    length = 3, smallest = 0x800, cp = b0 & 0x0F;
  } else if ((b0 & 0xF8) == 0xF0) {
    length = 4, smallest = 0x10000, cp = b0 & 0x07;
  } else {
    ++i;
    return false;
  }
  if (i + length > s.size()) {
    ++i;
    return false;
  }
  for (std::size_t k = 1; k < length; ++k) {
    if ((byte(i + k) & 0xC0) != 0x80) {
      ++i;
      return false;
    }
    cp = (cp << 6) | (byte(i + k) & 0x3F);
  }
  if (cp < smallest || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) {
    ++i;
    return false;
  }
  i += length;
  return true;
}

/// Whether `s` is well-formed UTF-8.
inline bool is_valid(std::string_view s) {
  char32_t cp = 0;
  for (std::size_t i = 0; i < s.size();) {
    if (!decode(s, i, cp)) return false;
  }
  return true;
}

/// C0 controls, DEL and the C1 controls (U+0080–U+009F, among them NEL U+0085).
inline bool is_control(char32_t c) { return c < 0x20 || (c >= 0x7F && c <= 0x9F); }

/// U+2028 LINE SEPARATOR and U+2029 PARAGRAPH SEPARATOR: line breaks that are not control characters.
inline bool is_line_separator(char32_t c) { return c == 0x2028 || c == 0x2029; }

/// The bidirectional formatting characters (Unicode's Bidi_Control property): marks, embeddings,
/// overrides and isolates, which reorder the text around them (U+202E makes "dlrow" read "world").
inline bool is_bidi_control(char32_t c) {
  return c == 0x061C || c == 0x200E || c == 0x200F || (c >= 0x202A && c <= 0x202E) || (c >= 0x2066 && c <= 0x2069);
}

/// Characters with no glyph of their own that can hide inside a name: soft hyphen, zero-width spaces and
/// joiners, word joiner and invisible operators, the Hangul fillers, variation selectors, the byte-order
/// mark, tag characters.
inline bool is_invisible(char32_t c) {
  return c == 0x00AD || c == 0x034F || c == 0x115F || c == 0x1160 || c == 0x17B4 || c == 0x17B5 ||
         (c >= 0x180B && c <= 0x180F) || (c >= 0x200B && c <= 0x200D) || (c >= 0x2060 && c <= 0x2064) ||
         c == 0x3164 || (c >= 0xFE00 && c <= 0xFE0F) || c == 0xFEFF || c == 0xFFA0 ||
         (c >= 0xE0000 && c <= 0xE007F) || (c >= 0xE0100 && c <= 0xE01EF);
}

/// Spaces other than U+0020 (no-break, en, em, thin, ideographic, ...), which look like it but are not.
inline bool is_other_space(char32_t c) {
  return c == 0x00A0 || c == 0x1680 || (c >= 0x2000 && c <= 0x200A) || c == 0x202F || c == 0x205F || c == 0x3000;
}

/// Combining marks of the script-neutral blocks (accents that attach to any letter: "e" + U+0301).
inline bool is_generic_combining_mark(char32_t c) {
  return (c >= 0x0300 && c <= 0x036F) || (c >= 0x1AB0 && c <= 0x1AFF) || (c >= 0x1DC0 && c <= 0x1DFF) ||
         (c >= 0x20D0 && c <= 0x20FF) || (c >= 0xFE20 && c <= 0xFE2F);
}

}  // namespace oblique::utf8
