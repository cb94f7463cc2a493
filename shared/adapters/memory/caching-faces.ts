// shared/adapters/memory/caching-faces.ts — the faces of the authors of feeds (the home timeline,
// topic pages), kept in the function's memory for a short while. A timeline page names up to 20
// authors, mostly the same ones page after page and reader after reader; reading their rows on
// every page was one more multi-get in the page's parallel stage, and on the gateway that costs
// the page its latency (the benchmark's timeline ratio). So a feed may show a name or avatar up
// to `ttlMs` old; a profile page, a post's page, lists and notifications read them fresh.
// That no face was found (an account that left: docs/consistency.md Q) is kept as long, so a feed
// shows a departed author's posts at most `ttlMs` after the leave, and again at most `ttlMs`
// after a restore — and a page full of them does not read their rows again every time.
import type { FaceDirectory, UserFace } from '../../ports/user-store.js';

export class CachingFaces implements FaceDirectory {
  private readonly entries = new Map<string, { face: UserFace | null; at: number }>();

  constructor(
    private readonly source: FaceDirectory,
    private readonly ttlMs: number,
    private readonly maxEntries = 10_000,
    private readonly now: () => number = Date.now,
  ) {}

  /** The fresh-enough faces from memory; the others in one read of the source. */
  async faces(handles: string[]): Promise<Map<string, UserFace>> {
    const at = this.now();
    const found = new Map<string, UserFace>();
    const missing: string[] = [];
    for (const handle of new Set(handles)) {
      const entry = this.entries.get(handle);
      if (!entry || at - entry.at >= this.ttlMs) missing.push(handle);
      else if (entry.face) found.set(handle, entry.face);
    }
    if (missing.length === 0) return found;
    const read = await this.source.faces(missing);
    for (const handle of missing) {
      const face = read.get(handle) ?? null;
      if (face) found.set(handle, face);
      this.entries.delete(handle); // re-inserted last: the oldest entries go first when full
      this.entries.set(handle, { face, at });
    }
    while (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    return found;
  }
}
