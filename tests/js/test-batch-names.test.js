// The C++ test files compile in batches in the builds `npm test` runs (OBLIQUE_UNITY_TESTS: one translation
// unit per batch), so no two of them may declare the same name at namespace scope (docs/testing.md): the
// names each file declares, read from its source by scripts/test-batch-names.mjs, which scripts/build.sh
// also runs before those builds.
import { describe, expect, it } from 'vitest';
import { clashMessage, namespaceScopeNames, sharedNames, testFiles } from '../../scripts/test-batch-names.mjs';

const REPO = new URL('../../', import.meta.url).pathname;

describe('the names of the C++ test files', () => {
  it('reads what a file declares at namespace scope, not what its functions, classes and literals hold', () => {
    const source = [
      '#include <gtest/gtest.h>',
      '#define CHECK_ALL(x) \\',
      '  EXPECT_TRUE(x)',
      'namespace {',
      'using oblique::Vector;',
      'using Rows = std::vector<int>;',
      'constexpr double kG = 9.81;  // int commented_out() {',
      'const std::string kPath = std::string("a;b{") + R"({"c": "}"})";',
      'struct Pile { int bodies = 2; double mass() const { return 1; } };',
      'enum class Mode { kSlide, kStick };',
      'template <typename A, typename B = std::vector<A>>',
      'B repeat(const A& a, int n) { B out; for (int i = 0; i < n; ++i) { out.push_back(a); } return out; }',
      'const auto twice = [](double x) { return 2 * x; };',
      'std::ostream& operator<<(std::ostream& out, const Pile&) { return out; }',
      '}  // namespace',
      'TEST(Piles, Stand) { const int local = 1; EXPECT_EQ(local, 1); }',
    ].join('\n');
    expect(namespaceScopeNames(source).map(({ name, kind }) => `${kind} ${name}`)).toEqual([
      'macro CHECK_ALL', 'type alias Rows', 'variable kG', 'variable kPath', 'type Pile', 'type Mode',
      'function repeat', 'variable twice',
    ]);
  });

  it('finds a helper that two files declare, overloads included, and allows the same type alias', () => {
    const files = [
      { path: 'tests/cpp/test_a.cpp', text: 'namespace {\ndouble run(int n) { return n; }\nusing Rows = std::vector<int>;\n}' },
      { path: 'tests/cpp/test_b.cpp', text: 'namespace {\ndouble run(double t) { return t; }\nusing Rows = std::vector<int>;\n}' },
      { path: 'tests/cpp/test_c.cpp', text: 'namespace oblique {\nusing Rows = std::vector<double>;\n}' },
    ];
    const shared = sharedNames(files);
    expect(shared).toEqual([
      { name: 'Rows', files: ['tests/cpp/test_a.cpp', 'tests/cpp/test_b.cpp', 'tests/cpp/test_c.cpp'] },
      { name: 'run', files: ['tests/cpp/test_a.cpp', 'tests/cpp/test_b.cpp'] },
    ]);
    expect(clashMessage(shared)).toContain('  run: tests/cpp/test_a.cpp, tests/cpp/test_b.cpp');
  });

  it('has no name declared at namespace scope in two test files', () => {
    const files = testFiles(REPO);
    expect(files.length).toBeGreaterThan(10);
    const shared = sharedNames(files);
    expect(shared, clashMessage(shared)).toEqual([]);
  });
});
