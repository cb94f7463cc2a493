// test/unit/consistency-doc.test.ts — docs/consistency.md names, for every invariant
// (A–X), the tests that force its interleavings. This keeps those names true: a named test that
// is renamed or removed fails here, and so does an invariant that names none.
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const doc = readFileSync(`${ROOT}docs/consistency.md`, 'utf8');

/** `## X. Title` sections of the invariants, each with its "Tests that force it" entries. */
function invariants(text: string): { letter: string; tests: { file: string; name: string }[] }[] {
  const sections = text.split(/^## /m).slice(1);
  return sections
    .filter((s) => /^[A-Z]\. /.test(s))
    .map((s) => ({
      letter: s[0]!,
      tests: [...s.matchAll(/^- `(test\/[^`]+\.test\.ts)` › (.+)$/gm)].map((m) => ({
        file: m[1]!,
        name: m[2]!.trim(),
      })),
    }));
}

/** The titles of a test file's `it(…)` / `test(…)` calls, quotes and escapes undone. */
function testTitles(source: string): Set<string> {
  const titles = new Set<string>();
  for (const m of source.matchAll(/\b(?:it|test)(?:\.\w+)?\(\s*(['"`])((?:\\.|(?!\1).)*)\1/g)) {
    titles.add(m[2]!.replace(/\\(.)/g, '$1'));
  }
  return titles;
}

describe('docs/consistency.md names the tests that force each invariant', () => {
  const found = invariants(doc);

  it('has the invariants A–X, each naming at least one test', () => {
    expect(found.map((s) => s.letter)).toEqual([
      'A',
      'B',
      'C',
      'D',
      'E',
      'F',
      'G',
      'H',
      'J',
      'K',
      'L',
      'M',
      'N',
      'P',
      'Q',
      'R',
      'S',
      'T',
      'U',
      'V',
      'W',
      'X',
    ]);
    for (const s of found) expect(s.tests.length, `invariant ${s.letter} names no test`).toBeGreaterThan(0);
  });

  for (const { letter, tests } of found) {
    it(`invariant ${letter}: every named test exists under that name`, () => {
      for (const { file, name } of tests) {
        expect(existsSync(`${ROOT}${file}`), `${letter}: ${file} does not exist`).toBe(true);
        expect(testTitles(readFileSync(`${ROOT}${file}`, 'utf8')), `${letter}: no test "${name}" in ${file}`).toContain(
          name,
        );
      }
    });
  }
});
