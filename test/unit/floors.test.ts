// test/unit/floors.test.ts — no arrow runs back up from the lowest floors: shared/runtime/
// imports nothing of ours (the invocation scope and the deadline everything else builds on),
// shared/hbase/ nothing above the REST client (the one shared leaf it uses: concurrency.ts), and
// shared/domain/ only the domain. Type-only imports count too: a type names a dependency.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SHARED = fileURLToPath(new URL('../../shared/', import.meta.url));

/** Every relative import of each .ts file under shared/<floor>, resolved to a path under shared/. */
function importsOf(floor: string): { file: string; target: string }[] {
  const dir = path.join(SHARED, floor);
  const out: { file: string; target: string }[] = [];
  for (const entry of readdirSync(dir, { recursive: true, encoding: 'utf8' })) {
    if (!entry.endsWith('.ts')) continue;
    const file = path.join(dir, entry);
    for (const m of readFileSync(file, 'utf8').matchAll(/(?:from|import)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g)) {
      out.push({
        file: path.relative(SHARED, file),
        target: path.relative(SHARED, path.resolve(path.dirname(file), m[1]!)),
      });
    }
  }
  return out;
}

const outside = (floor: string, allowed: (target: string) => boolean) =>
  importsOf(floor)
    .filter(({ target }) => !allowed(target))
    .map(({ file, target }) => `${file} → ${target}`);

describe('the lowest floors import nothing above them', () => {
  it('runtime/ imports nothing of ours but itself', () => {
    expect(importsOf('runtime').length).toBeGreaterThan(0);
    expect(outside('runtime', (t) => t.startsWith('runtime/'))).toEqual([]);
  });

  it('hbase/ imports only hbase/ (and the shared mapLimit)', () => {
    expect(outside('hbase', (t) => t.startsWith('hbase/') || t === 'concurrency.js')).toEqual([]);
  });

  it('domain/ imports only domain/', () => {
    expect(importsOf('domain').length).toBeGreaterThan(0);
    expect(outside('domain', (t) => t.startsWith('domain/'))).toEqual([]);
  });
});
