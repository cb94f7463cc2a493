// test/unit/media-bench-settings.test.ts — the pictures benchmark's settings (test/bench/media/settings.ts):
// the worker's memory setting is read from serverless.yml as deployed (following its `${file(…)}`
// includes), never hard-coded, and the profiles and overrides say what the run measures.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { mediaBenchSettings, workerFunctionSettings } from '../bench/media/settings.js';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** A repository with these files; its URL ends in a slash, as the bench's root does. */
function repo(files: Record<string, string>): URL {
  const dir = mkdtempSync(join(tmpdir(), 'media-bench-settings-'));
  dirs.push(dir);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return pathToFileURL(`${dir}/`);
}

describe('workerFunctionSettings', () => {
  it('follows serverless.yml’s ${file(…)} includes to processMedia’s memorySize and environment', () => {
    const root = repo({
      'serverless.yml': 'functions:\n  - ${file(infra/functions/http.yml)}\n  - ${file(infra/functions/queue.yml)}\n',
      'infra/functions/http.yml': 'api:\n  handler: a.handler\n  memorySize: 512\n',
      'infra/functions/queue.yml':
        "processMedia:\n  handler: b.handler\n  memorySize: 3008\n  environment:\n    MALLOC_ARENA_MAX: '2'\n",
    });
    expect(workerFunctionSettings(root)).toEqual({
      memorySizeMB: 3008,
      environment: { MALLOC_ARENA_MAX: '2' },
      from: 'infra/functions/queue.yml',
    });
  });

  it('reads functions written inline too, and refuses a memorySize that is not a number or no processMedia', () => {
    expect(
      workerFunctionSettings(repo({ 'serverless.yml': 'functions:\n  processMedia:\n    memorySize: 1024\n' })),
    ).toEqual({
      memorySizeMB: 1024,
      environment: {},
      from: 'serverless.yml',
    });
    expect(() =>
      workerFunctionSettings(repo({ 'serverless.yml': 'functions:\n  processMedia:\n    memorySize: ${param:mem}\n' })),
    ).toThrow(/not a memory setting/);
    expect(() =>
      workerFunctionSettings(repo({ 'serverless.yml': 'functions:\n  api:\n    memorySize: 512\n' })),
    ).toThrow(/no processMedia/);
  });

  it('finds the repository’s own setting', () => {
    const mine = workerFunctionSettings();
    expect(mine.from).toBe('infra/functions/queue.yml');
    expect(mine.memorySizeMB).toBeGreaterThanOrEqual(1024);
    expect(mine.environment.MALLOC_ARENA_MAX).toBe('2');
  });
});

describe('mediaBenchSettings', () => {
  it('--smoke is the small profile with its own output name; a variable overrides one value; a bad one is refused', () => {
    const smoke = mediaBenchSettings({}, ['--smoke']);
    expect(smoke).toMatchObject({ profile: 'smoke', samples: 3, outName: 'media-bench-smoke' });
    expect(mediaBenchSettings({ MEDIA_BENCH_SAMPLES: '7' }, [])).toMatchObject({
      profile: 'default',
      samples: 7,
      outName: 'media-bench',
    });
    expect(() => mediaBenchSettings({ MEDIA_BENCH_SAMPLES: '0' }, [])).toThrow(/MEDIA_BENCH_SAMPLES/);
  });
});
