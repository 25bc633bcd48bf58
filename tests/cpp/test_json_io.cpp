// parse_json: every limit refused before a value is built, named in the message with the JSON pointer of
// where it was hit; syntax errors at the pointer of the value being read; user bytes escaped.
#include <gtest/gtest.h>

#include <string>

#include "oblique/io/json_io.hpp"

namespace oblique {
namespace {

/// The JsonError parse_json throws for `text`, or fails the test.
JsonError error_of(const std::string& text) {
  try {
    parse_json(text, "doc");
  } catch (const JsonError& e) {
    return e;
  }
  ADD_FAILURE() << "no JsonError for " << text.substr(0, 80);
  return JsonError("", "", "");
}

std::string nested_arrays(std::size_t depth) { return std::string(depth, '[') + std::string(depth, ']'); }

TEST(ParseJson, NestingDeeperThanTheLimitIsRefusedWhereItIsHitBeforeAnyValueIsBuilt) {
  // At the limit: read.
  EXPECT_NO_THROW(parse_json(nested_arrays(kMaxJsonDepth), "doc"));
  EXPECT_NO_THROW(parse_json("{\"a\":" + nested_arrays(kMaxJsonDepth - 1) + ",\"b\":1}", "doc"));
  // One more: refused, at the pointer of the array that goes one level too deep.
  const JsonError over = error_of(nested_arrays(kMaxJsonDepth + 1));
  EXPECT_EQ(over.reason(), "nested deeper than 64 levels of arrays and objects");
  std::string where;
  for (std::size_t i = 0; i < kMaxJsonDepth; ++i) where += "/0";
  EXPECT_EQ(over.pointer(), where);
  // The crash of issue #13: a deep value followed by another key, natively at ~75 000 levels (the stack)
  // and in wasm at ~2 700. Now refused, whatever the depth.
  for (std::size_t depth : {100u, 3000u, 100000u, 1000000u}) {
    const JsonError e = error_of("{\"zz\":" + nested_arrays(depth) + ",\"bodies\":[{\"name\":\"a\"}]}");
    EXPECT_EQ(e.reason(), "nested deeper than 64 levels of arrays and objects") << depth;
    EXPECT_EQ(e.pointer().rfind("/zz/0/0/0", 0), 0u) << e.pointer();
    EXPECT_LE(e.pointer().size(), 200u);
    EXPECT_EQ(std::string(e.what()).rfind("doc:/zz/0/0/0", 0), 0u) << e.what();
  }
  // Objects count alike.
  std::string objects;
  for (int i = 0; i < 100; ++i) objects += "{\"a\":";
  objects += "1" + std::string(100, '}');
  const JsonError deep_objects = error_of(objects);
  EXPECT_EQ(deep_objects.reason(), "nested deeper than 64 levels of arrays and objects");
  EXPECT_EQ(deep_objects.pointer().rfind("/a/a/a", 0), 0u) << deep_objects.pointer();
}

TEST(ParseJson, TooLargeTooManyValuesTooManyKeys) {
  // Size: the same message as the CLI's reader.
  const JsonError large = error_of(std::string(kMaxJsonBytes + 1, ' '));
  EXPECT_EQ(std::string(large.what()), "doc: too large (more than 32 MiB)");
  EXPECT_EQ(large.pointer(), "");
  // Values: a million is fine, one more is not.
  std::string values = "[";
  for (std::size_t i = 0; i + 2 < kMaxJsonValues; ++i) values += "0,";
  EXPECT_NO_THROW(parse_json(values + "0]", "doc"));  // the array and its 999 999 numbers
  const JsonError many = error_of(values + "0,0]");
  EXPECT_EQ(many.reason(), "more than 1000000 values (numbers, strings, arrays, ...)");
  EXPECT_EQ(many.pointer(), "/999999");
  // Keys of one object.
  std::string wide = "{\"x\":{";
  for (std::size_t i = 0; i <= kMaxObjectKeys; ++i) wide += (i ? ",\"k" : "\"k") + std::to_string(i) + "\":0";
  const JsonError keys = error_of(wide + "}}");
  EXPECT_EQ(keys.reason(), "an object has more than 10000 keys");
  EXPECT_EQ(keys.pointer(), "/x");
}

TEST(ParseJson, TheKeysOfManyWideObjectsAreBoundedInTotal) {
  // Issue #13: 32 MiB of objects of 10 000 keys took a minute (each key is compared with those before it).
  // One such object is read; the document's key comparisons are bounded, so the second is refused.
  std::string object = "{";
  for (std::size_t i = 0; i < kMaxObjectKeys; ++i) object += (i ? ",\"k" : "\"k") + std::to_string(i) + "\":0";
  object += "}";
  EXPECT_NO_THROW(parse_json("[" + object + "]", "doc"));
  const JsonError e = error_of("[" + object + "," + object + "," + object + "]");
  EXPECT_EQ(e.reason().rfind("too many keys in its objects", 0), 0u) << e.reason();
  EXPECT_EQ(e.pointer(), "/1");
  // Many small objects are fine: 50 000 objects of 10 keys.
  std::string small = "[";
  for (int i = 0; i < 50000; ++i) small += std::string(i ? "," : "") + R"({"a":0,"b":0,"c":0,"d":0,"e":0,"f":0,"g":0,"h":0,"i":0,"j":0})";
  EXPECT_NO_THROW(parse_json(small + "]", "doc"));
}

TEST(ParseJson, SyntaxErrorsAreAtThePointerOfTheValueBeingRead) {
  // A lone surrogate in a string (issue #13.8): at that string, said in plain words.
  const JsonError lone = error_of(R"({"bodies":[{"name":"a\ud800"}],"title":"x"})");
  EXPECT_EQ(lone.pointer(), "/bodies/0/name");
  EXPECT_NE(lone.reason().find("lone surrogate is not text"), std::string::npos) << lone.reason();
  EXPECT_EQ(lone.reason().rfind("malformed JSON: ", 0), 0u);
  const JsonError low = error_of(R"({"title":"\udc00"})");
  EXPECT_EQ(low.pointer(), "/title");
  EXPECT_NE(low.reason().find("lone surrogate"), std::string::npos) << low.reason();
  // A pair is text.
  EXPECT_EQ(parse_json(R"({"title":"\ud83d\ude00"})", "doc")["title"], "\xF0\x9F\x98\x80");
  // In an array: the index of the element; after a complete value: its container.
  EXPECT_EQ(error_of(R"({"qd":[1,2,x]})").pointer(), "/qd/2");
  EXPECT_EQ(error_of(R"({"a":1 "b":2})").pointer(), "");
  EXPECT_EQ(error_of(R"({"a":{"b":[1,}})").pointer(), "/a/b/1");
  // A number beyond a double: at that number.
  const JsonError overflow = error_of(R"({"bodies":[{"mass":1e400}]})");
  EXPECT_EQ(overflow.pointer(), "/bodies/0/mass");
  EXPECT_EQ(overflow.reason().rfind("malformed JSON: number overflow parsing '1e400'", 0), 0u) << overflow.reason();
  // A key that cannot be shown in a pointer: the place is its object.
  EXPECT_EQ(error_of("{\"a\":{\"\\u202e\":[1,}}").pointer(), "/a");
  // Nothing, or garbage after the value: the whole document.
  EXPECT_EQ(error_of("").pointer(), "");
  EXPECT_EQ(error_of("{} x").pointer(), "");
}

TEST(ParseJson, UserBytesInMessagesAreEscaped) {
  // Invalid UTF-8 and a bidi override inside the text the parser quotes back.
  const JsonError bad = error_of(std::string("{\"title\":\"ab\xFF\xFE\"}"));
  EXPECT_EQ(bad.pointer(), "/title");
  EXPECT_NE(bad.reason().find("\\xff"), std::string::npos) << bad.reason();
  for (char c : bad.reason()) EXPECT_LT(static_cast<unsigned char>(c), 0x80u) << bad.reason();
  const JsonError override = error_of("{\"title\":\"\xE2\x80\xAE" "abc\\q\"}");
  EXPECT_EQ(override.pointer(), "/title");
  EXPECT_EQ(override.reason().find("\xE2\x80\xAE"), std::string::npos) << override.reason();
  EXPECT_NE(override.reason().find("\\u202e"), std::string::npos) << override.reason();
}

}  // namespace
}  // namespace oblique
