// test/packaging/bundles.test.ts — what each function ships: `serverless package` (osls +
// serverless-esbuild, no AWS account) run as an operator runs it, with nothing overriding the
// build folder, while a serverless-offline build tree exists in the same checkout. Asserts one
// zip per function holding its own minified bundle (and map) and nothing any other function
// needs, every AWS SDK client bundled at its pinned version (docs/deploy.md, "Packaging"), sharp in the media
// worker's zip alone, a size budget per zip and per bundle, the AWS clients only where a function
// uses them (shared/wiring/), and that packaging leaves the offline tree alone
// (infra/plugins/build-folders.cjs). Prints the packages, biggest first.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { FOLDERS, workFolderFor } from '../../infra/plugins/build-folders.cjs';
import { devPackage } from './one-package-at-a-time.js';
import { zipEntries } from './zip.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** The budget of one zip (compressed): a bundle and its map. The media worker adds sharp + libvips. */
const ZIP_BUDGET_BYTES = 1_600_000;
const MEDIA_ZIP_BUDGET_BYTES = 11_000_000;
/**
 * The budget of one function's JavaScript as Lambda loads it (the uncompressed bundle): what a
 * cold start parses. A function carries only what its handler reaches (shared/wiring/).
 */
const BUNDLE_BUDGET_BYTES = 1_000_000;
/** A guarded optional require inside the S3 signer (try/catch): absent in Lambda, and fine so. */
const OPTIONAL = ['@aws-sdk/signature-v4-crt'];
const SHARP_FILES =
  /^node_modules\/(sharp|@img\/sharp-linux-x64|@img\/sharp-libvips-linux-x64|@img\/colour|detect-libc|semver)\//;

interface Packaged {
  name: string;
  handlerFile: string;
  zipBytes: number;
  bundleBytes: number;
  entries: string[];
  bundle: string;
}
let packaged: Packaged[] = [];

let offlineTreeKept = false;

beforeAll(async () => {
  const made = await devPackage(inject('packageCacheDir'), 280_000);
  const packageDir = made.dir;
  offlineTreeKept = made.offlineTreeKept;
  const template = JSON.parse(readFileSync(join(packageDir, 'cloudformation-template-update-stack.json'), 'utf8')) as {
    Resources: Record<
      string,
      { Type: string; Properties: { FunctionName: string; Handler: string; Code: { S3Key: string } } }
    >;
  };
  packaged = Object.values(template.Resources)
    .filter((r) => r.Type === 'AWS::Lambda::Function')
    .map((r) => {
      const zipName = r.Properties.Code.S3Key.split('/').pop()!;
      const handlerFile = `${r.Properties.Handler.slice(0, r.Properties.Handler.lastIndexOf('.'))}.cjs`;
      const zip = zipEntries(join(packageDir, zipName));
      const bundle = zip.get(handlerFile);
      return {
        name: zipName.replace(/\.zip$/, ''),
        handlerFile,
        zipBytes: statSync(join(packageDir, zipName)).size,
        bundleBytes: bundle ? bundle().length : 0,
        entries: [...zip.keys()],
        bundle: bundle ? bundle().toString('utf8') : '',
      };
    })
    .sort((a, b) => b.zipBytes - a.zipBytes);
  const kb = (n: number) => `${(n / 1024).toFixed(0)} KB`.padStart(9);
  console.log(
    `[packaging] ${packaged.length} packages, biggest first (zip, bundle):\n` +
      packaged.map((p) => `  ${p.name.padEnd(24)} ${kb(p.zipBytes)} ${kb(p.bundleBytes)}  ${p.handlerFile}`).join('\n'),
  );
}, 300_000);

describe('serverless package: one zip per function, only what it imports', () => {
  it('packages every function of the configuration, each in a zip of its own', () => {
    expect(packaged.length).toBeGreaterThan(40);
    expect(new Set(packaged.map((p) => p.name)).size).toBe(packaged.length);
  });

  it("holds exactly the function's own bundle and its map (plus sharp for the media worker alone)", () => {
    for (const p of packaged) {
      const code = p.entries.filter((e) => !e.startsWith('node_modules/'));
      expect(code.sort(), p.name).toEqual([p.handlerFile, `${p.handlerFile}.map`]);
      const modules = p.entries.filter((e) => e.startsWith('node_modules/'));
      if (p.name === 'processMedia') {
        expect(modules.length).toBeGreaterThan(0);
        expect(modules.filter((m) => !SHARP_FILES.test(m))).toEqual([]);
      } else {
        expect(modules, p.name).toEqual([]);
      }
    }
  });

  it('ships minified bundles whose frames keep their names, with a map that only the opt-in flag reads', () => {
    for (const p of packaged) {
      // Minified: a handful of very long lines, not the ~100k lines of an unminified bundle.
      expect(p.bundle.split('\n').length, p.name).toBeLessThan(5_000);
      expect(p.bundle, p.name).toMatch(/\/\/# sourceMappingURL=[\w.-]+\.cjs\.map\s*$/);
    }
    const like = packaged.find((p) => p.name === 'like')!;
    // keepNames: the names the code was written with, for stacks and for `.name` checks.
    expect(like.bundle).toMatch(/"correlationIdOf"/);
  });

  it('bundles every AWS SDK client at its pinned version: a bundle requires nothing but Node built-ins (and sharp, in the media worker)', () => {
    for (const p of packaged) {
      const required = new Set([...p.bundle.matchAll(/require\("([^"]+)"\)/g)].map((m) => m[1]!));
      const foreign = [...required].filter(
        (r) =>
          !r.startsWith('node:') &&
          !builtinModules.includes(r) &&
          !OPTIONAL.includes(r) &&
          !(p.name === 'processMedia' && r === 'sharp'),
      );
      expect(foreign, p.name).toEqual([]);
    }
    // The feed's functions carry the SQS client they send to the fan-out queue with.
    expect(packaged.find((p) => p.name === 'publishPost')!.bundle).toContain('AmazonSQS');
  });

  it(`keeps every zip under ${ZIP_BUDGET_BYTES / 1e6} MB (the media worker's under ${MEDIA_ZIP_BUDGET_BYTES / 1e6} MB)`, () => {
    for (const p of packaged) {
      expect(p.zipBytes, p.name).toBeLessThan(p.name === 'processMedia' ? MEDIA_ZIP_BUDGET_BYTES : ZIP_BUDGET_BYTES);
    }
  });

  it(`keeps every function's JavaScript within ${BUNDLE_BUDGET_BYTES / 1e6} MB`, () => {
    const over = packaged
      .filter((p) => p.bundleBytes > BUNDLE_BUDGET_BYTES)
      .map((p) => `${p.name}: ${p.bundleBytes} bytes`);
    expect(over, 'functions whose bundle exceeds the budget').toEqual([]);
  });

  it('keeps the media, SQS and Lambda clients out of the functions that do not use them', () => {
    const bundleOf = (name: string) => packaged.find((p) => p.name === name)!.bundle;
    // Accounts and sessions: HBase and the token keys, no queue, no object store.
    for (const name of ['login', 'register', 'refreshSession', 'logOut']) {
      expect(bundleOf(name), name).not.toContain('AmazonSQS');
      expect(bundleOf(name), name).not.toContain('AmazonS3');
    }
    // The feed shows pictures without the S3 client, and the private messages sign theirs without
    // it (shared/adapters/s3/private-variant-signer.ts); only the scheduled jobs invoke Lambda.
    for (const name of ['like', 'homeTimeline', 'publishPost', 'getProfile', 'getMedia', 'messages'])
      expect(bundleOf(name), name).not.toContain('AmazonS3');
    for (const p of packaged.filter((p) => !p.handlerFile.includes('/schedule/')))
      expect(p.bundle, p.name).not.toContain('"InvokeCommand"');
    // The markers are there where the clients are.
    expect(bundleOf('createUpload')).toContain('AmazonS3');
    expect(bundleOf('trimInboxes')).toContain('"InvokeCommand"');
  });
});

describe('serverless package beside a running serverless-offline', () => {
  it('builds in a folder of its own and leaves the offline build tree in place', () => {
    expect(workFolderFor(['offline', 'start'])).toBe(FOLDERS.offline);
    expect(workFolderFor(['package'])).toBe(FOLDERS.package);
    expect(workFolderFor(['deploy'])).toBe(FOLDERS.package);
    expect(FOLDERS.package).not.toBe(FOLDERS.offline);
    expect(offlineTreeKept, 'a file of the offline build tree survived packaging unchanged').toBe(true);
    // Its own folder is cleaned after packaging, as serverless-esbuild does.
    expect(existsSync(join(ROOT, FOLDERS.package))).toBe(false);
  });
});
