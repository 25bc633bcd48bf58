// The one JSON reader of the scenario and impact documents: places in both styles, unknown keys with the
// likely intended one, references by name, types, and what it marks unread for the checks of values.
#include <gtest/gtest.h>

#include <string>

#include "error_message.hpp"
#include "oblique/io/json_reader.hpp"

namespace oblique {
namespace {

TEST(JsonReader, PlacesArePointersOrFieldPaths) {
  EXPECT_EQ(child_path(PathStyle::Pointer, "", "bodies"), "/bodies");
  EXPECT_EQ(child_path(PathStyle::Pointer, "/bodies", std::size_t{2}), "/bodies/2");
  EXPECT_EQ(child_path(PathStyle::Pointer, "", "a/b~c"), "/a~1b~0c");
  EXPECT_EQ(child_path(PathStyle::Field, "", "M"), "M");
  EXPECT_EQ(child_path(PathStyle::Field, child_path(PathStyle::Field, "M", std::size_t{1}), std::size_t{0}), "M[1][0]");
  EXPECT_EQ(child_path(PathStyle::Field, "flags", "energy_gain"), "flags.energy_gain");
}

TEST(JsonReader, UnknownKeysGetTheLikelyIntendedOneOrTheAllowedList) {
  IssueList issues;
  JsonReader r(issues, PathStyle::Pointer);
  const Json body = Json::parse(R"({"mass":1,"masss":2,"Mass":3,"colour":"red","zz":0,"width":1})");
  r.keys(body, "/bodies/0", {"name", "mass", "color"}, {"name", "mass", "color", "width"}, "a body");
  const auto list = issues.take();
  ASSERT_EQ(list.size(), 5u);
  EXPECT_EQ(issue_text(list[0]), "/bodies/0/masss: unknown field \"masss\"; did you mean \"mass\"?");
  EXPECT_EQ(issue_text(list[1]), "/bodies/0/Mass: unknown field \"Mass\"; did you mean \"mass\"?");
  EXPECT_EQ(issue_text(list[2]), "/bodies/0/colour: unknown field \"colour\"; did you mean \"color\"?");
  EXPECT_EQ(issue_text(list[3]), "/bodies/0/zz: unknown field \"zz\" in a body (allowed: name, mass, color)");
  EXPECT_EQ(issue_text(list[4]), "/bodies/0/width: not a field of a body (its fields: name, mass, color)");
  // A key that cannot be shown in a pointer is reported at its object, escaped in the message.
  IssueList hidden;
  JsonReader(hidden, PathStyle::Pointer).keys(Json::parse("{\"a\\u202eb\":1}"), "/view", {"width"}, {"width"}, "the view");
  const auto shown = hidden.take();
  ASSERT_EQ(shown.size(), 1u);
  EXPECT_EQ(shown[0].pointer, "/view");
  EXPECT_NE(shown[0].message.find("\"a\\u202eb\""), std::string::npos) << shown[0].message;
}

TEST(JsonReader, AValueThatCannotBeReadIsReportedAndMarkedUnread) {
  IssueList issues;
  JsonReader r(issues, PathStyle::Pointer);
  const Json body = Json::parse(R"({"mass":"heavy","angle":"NaN","position":[0,null],"spokes":6.5,"trails":1})");
  double mass = 1.0, angle = 0.0;
  Vec2 position(3.0, 4.0);
  int spokes = 6;
  bool trails = false;
  EXPECT_FALSE(r.number(body, "/b", "mass", mass));
  EXPECT_FALSE(r.number(body, "/b", "angle", angle));
  EXPECT_FALSE(r.vec2(body, "/b", "position", position));
  EXPECT_FALSE(r.integer(body, "/b", "spokes", spokes));
  EXPECT_FALSE(r.boolean(body, "/b", "trails", trails));
  EXPECT_TRUE(r.number(body, "/b", "absent", mass));  // absent: the default stays, no issue
  // Outputs keep their defaults; the places are unread, and so is whatever they hold.
  EXPECT_EQ(mass, 1.0);
  EXPECT_EQ(position, Vec2(3.0, 4.0));
  EXPECT_EQ(spokes, 6);
  for (const char* place : {"/b/mass", "/b/angle", "/b/position", "/b/position/1", "/b/spokes", "/b/trails"}) {
    EXPECT_TRUE(issues.skipped(place)) << place;
  }
  EXPECT_FALSE(issues.skipped("/b/absent"));
  EXPECT_FALSE(issues.skipped("/b"));
  const auto list = issues.take();
  ASSERT_EQ(list.size(), 5u);
  EXPECT_EQ(issue_text(list[0]), "/b/mass: must be a number, got a string");
  EXPECT_EQ(issue_text(list[1]), "/b/angle: must be a finite number, got NaN");
  EXPECT_EQ(issue_text(list[2]), "/b/position/1: must be a number, got null");
  EXPECT_EQ(issue_text(list[3]), "/b/spokes: must be a whole number, got 6.5");
  EXPECT_EQ(issue_text(list[4]), "/b/trails: must be true or false, got a number");
}

TEST(JsonReader, NamesResolveWithASuggestionOrTheList) {
  IssueList issues;
  JsonReader r(issues, PathStyle::Pointer);
  NameTable bodies("body", "bodies");
  bodies.insert("ball", 0);
  bodies.insert("crate", 1);
  bodies.insert("ball", 2);  // a duplicate keeps the first
  EXPECT_EQ(bodies.find(r, "ball", "/x"), 0);
  EXPECT_EQ(bodies.find(r, "bal", "/joints/0/body_a"), std::nullopt);
  EXPECT_EQ(bodies.find(r, "zzz", "/joints/1/body_a"), std::nullopt);
  const auto list = issues.take();
  ASSERT_EQ(list.size(), 2u);
  EXPECT_EQ(issue_text(list[0]), "/joints/0/body_a: unknown body \"bal\"; did you mean \"ball\"?");
  EXPECT_EQ(issue_text(list[1]), "/joints/1/body_a: unknown body \"zzz\" (bodies: \"ball\", \"crate\")");
  // When the list was not read in full, an unknown name may be an unread one: no issue, but unread.
  IssueList partial;
  JsonReader p(partial, PathStyle::Pointer);
  bodies.set_complete(false);
  EXPECT_EQ(bodies.find(p, "zzz", "/forces/0/body"), std::nullopt);
  EXPECT_TRUE(partial.empty());
  EXPECT_TRUE(partial.skipped("/forces/0/body"));
}

TEST(JsonReader, FailFastReadersNameTheFirstBadEntryAsUsersWriteIt) {
  EXPECT_EQ(testing::message_of([] { matrix_from_json(Json::parse(R"([[1,0],[0,"NaN"]])"), "M"); }),
            "M[1][1]: must be a finite number, got NaN");
  EXPECT_EQ(testing::message_of([] { matrix_from_json(Json::parse(R"([[1,0],[0]])"), "M"); }),
            "M[1]: has 1 entries but row 0 has 2");
  EXPECT_EQ(testing::message_of([] { vector_from_json(Json::parse(R"("rows")"), "qd"); }),
            "qd: must be an array of numbers, got a string");
  EXPECT_EQ(testing::message_of([] { number_from_json(Json::parse("[1]"), "e"); }), "e: must be a number, got an array");
  EXPECT_EQ(matrix_from_json(Json::array(), "A", 3).cols(), 3);
}

}  // namespace
}  // namespace oblique
