// web/build.ts — builds the web client into a static folder any static host can serve:
//   index.html, config.js (the API URL, injected here), app-<hash>.js, app-<hash>.css, and the
//   API reference page api-docs/ (Swagger UI reading <api>/openapi.json, with our fixes:
//   api-docs-init.js, api-docs/reference.css). No inline script
//   anywhere: the pages' CSP (web/security-headers.ts) allows scripts from the origin only.
// Fails (exit 1) when the client's JavaScript + CSS exceed the budget of 150 KB gzipped; the
// reference page is not part of the client and is not counted.
//   tsx web/build.ts [--api-url URL] [--out DIR]     (defaults: http://127.0.0.1:13000, web/dist)
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

const WEB = fileURLToPath(new URL('.', import.meta.url));
const ROOT = join(WEB, '..');
export const BUDGET_BYTES = 150 * 1024;

export interface WebBuild {
  outDir: string;
  /** gzipped bytes of each counted file (JS + CSS), and their total */
  sizes: Record<string, number>;
  total: number;
}

export async function buildWeb(opts: { apiUrl: string; outDir: string }): Promise<WebBuild> {
  const outDir = opts.outDir;
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(join(outDir, 'api-docs'), { recursive: true });
  const result = await build({
    entryPoints: [join(WEB, 'src/main.tsx')],
    bundle: true,
    minify: true,
    format: 'esm',
    target: ['es2022', 'chrome110', 'firefox110', 'safari16'],
    jsx: 'automatic',
    jsxImportSource: 'preact',
    outdir: outDir,
    entryNames: 'app-[hash]',
    metafile: true,
    legalComments: 'none',
    logLevel: 'warning',
  });
  const outputs = Object.keys(result.metafile.outputs).map((p) => basename(p));
  const js = outputs.find((f) => f.endsWith('.js'))!;
  const css = outputs.find((f) => f.endsWith('.css'));

  // The API URL is configuration, not code: one small file a deploy may rewrite.
  const apiUrl = opts.apiUrl.replace(/\/+$/, '');
  writeFileSync(join(outDir, 'config.js'), `window.WEIBO_CONFIG = ${JSON.stringify({ apiUrl })};\n`);
  const html = readFileSync(join(WEB, 'index.html'), 'utf8')
    .replace('<!--app-css-->', css ? `<link rel="stylesheet" href="${css}">` : '')
    .replace('<!--app-js-->', `<script type="module" src="${js}"></script>`);
  writeFileSync(join(outDir, 'index.html'), html);

  const swagger = join(ROOT, 'node_modules/swagger-ui-dist');
  for (const f of ['swagger-ui-bundle.js', 'swagger-ui.css'])
    copyFileSync(join(swagger, f), join(outDir, 'api-docs', f));
  copyFileSync(join(WEB, 'api-docs-init.js'), join(outDir, 'api-docs/init.js'));
  // Our contrast fixes to Swagger UI's colours (the page must pass axe as the client's do).
  copyFileSync(join(WEB, 'api-docs/reference.css'), join(outDir, 'api-docs/reference.css'));
  writeFileSync(
    join(outDir, 'api-docs/index.html'),
    readFileSync(join(WEB, 'api-docs.html'), 'utf8').replace('__OPENAPI_URL__', `${apiUrl}/openapi.json`),
  );

  const sizes: Record<string, number> = {};
  for (const f of ['config.js', js, ...(css ? [css] : [])])
    sizes[f] = gzipSync(readFileSync(join(outDir, f)), { level: 9 }).length;
  const total = Object.values(sizes).reduce((a, b) => a + b, 0);
  return { outDir, sizes, total };
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { 'api-url': { type: 'string' }, out: { type: 'string' } } });
  const out = await buildWeb({
    apiUrl: values['api-url'] ?? process.env.WEIBO_API_URL ?? 'http://127.0.0.1:13000',
    outDir: values.out ?? join(WEB, 'dist'),
  });
  for (const [f, n] of Object.entries(out.sizes))
    console.log(`  ${f.padEnd(24)} ${(n / 1024).toFixed(1).padStart(6)} KB gzipped`);
  const verdict = out.total <= BUDGET_BYTES ? 'within' : 'OVER';
  console.log(
    `[web] ${out.outDir}: JS + CSS ${(out.total / 1024).toFixed(1)} KB gzipped, ${verdict} the ${BUDGET_BYTES / 1024} KB budget`,
  );
  if (out.total > BUDGET_BYTES) process.exit(1);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await main();
