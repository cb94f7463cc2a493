// test/unit/caching-faces.test.ts — the feeds' face cache (shared/adapters/memory/caching-faces.ts):
// what it answers from memory, what it reads again, and that it stays bounded.
import { describe, expect, it } from 'vitest';
import { CachingFaces } from '../../shared/adapters/memory/caching-faces.js';
import type { FaceDirectory, UserFace } from '../../shared/ports/user-store.js';

function directory() {
  const names = new Map<string, string>([
    ['amy', 'Amy'],
    ['bob', 'Bob'],
    ['cat', 'Cat'],
  ]);
  const reads: string[][] = [];
  const source: FaceDirectory = {
    async faces(handles) {
      reads.push([...handles].sort());
      return new Map(
        handles.flatMap((h): [string, UserFace][] =>
          names.has(h) ? [[h, { handle: h, displayName: names.get(h)! }]] : [],
        ),
      );
    },
  };
  return { names, reads, source };
}

describe('CachingFaces', () => {
  it('reads only the faces it has not got, in one read; within the TTL it answers from memory', async () => {
    const { reads, source } = directory();
    let now = 0;
    const cache = new CachingFaces(source, 60_000, 100, () => now);
    expect([...(await cache.faces(['amy', 'bob', 'amy'])).keys()].sort()).toEqual(['amy', 'bob']);
    now = 59_999;
    expect([...(await cache.faces(['amy', 'bob', 'cat', 'nobody'])).keys()].sort()).toEqual(['amy', 'bob', 'cat']);
    expect(reads).toEqual([
      ['amy', 'bob'],
      ['cat', 'nobody'],
    ]);
    expect(await cache.faces(['amy', 'cat'])).toHaveProperty('size', 2);
    expect(reads).toHaveLength(2); // all from memory
  });

  it('keeps "no face" (a user who left) as long as a face: a feed full of them reads their rows once a TTL', async () => {
    const { names, reads, source } = directory();
    let now = 0;
    const cache = new CachingFaces(source, 60_000, 100, () => now);
    names.delete('bob'); // left
    expect([...(await cache.faces(['amy', 'bob'])).keys()]).toEqual(['amy']);
    now = 59_999;
    expect([...(await cache.faces(['amy', 'bob'])).keys()]).toEqual(['amy']);
    expect(reads).toEqual([['amy', 'bob']]);
    names.set('bob', 'Bob'); // back: shown once the "no face" is older than the TTL
    now = 60_000;
    expect([...(await cache.faces(['bob'])).keys()]).toEqual(['bob']);
    expect(reads).toEqual([['amy', 'bob'], ['bob']]);
  });

  it('a name changed at the source shows once the entry is older than the TTL', async () => {
    const { names, source } = directory();
    let now = 0;
    const cache = new CachingFaces(source, 60_000, 100, () => now);
    await cache.faces(['amy']);
    names.set('amy', 'Amy 2');
    now = 30_000;
    expect((await cache.faces(['amy'])).get('amy')?.displayName).toBe('Amy');
    now = 60_000;
    expect((await cache.faces(['amy'])).get('amy')?.displayName).toBe('Amy 2');
  });

  it('keeps at most maxEntries, dropping the oldest read first', async () => {
    const { reads, source } = directory();
    const cache = new CachingFaces(source, 60_000, 2, () => 0);
    await cache.faces(['amy']);
    await cache.faces(['bob']);
    await cache.faces(['cat']); // amy goes
    reads.length = 0;
    await cache.faces(['bob', 'cat']);
    expect(reads).toEqual([]);
    await cache.faces(['amy']);
    expect(reads).toEqual([['amy']]);
  });
});
