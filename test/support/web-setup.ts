// test/support/web-setup.ts — for the browser tests: builds the web client (web/build.ts, which
// also enforces the size budget) and serves it as `npm start` and the deployed stack do — static
// files, the API under /api on the same origin, the live channel's WebSocket at /api/live — in
// front of the API offline-setup.ts started.
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import { BUDGET_BYTES, buildWeb } from '../../web/build.js';
import { serveWeb } from '../../web/serve.js';
import { localObjectStoreEndpoint } from '../../infra/local/object-store.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export default async function setup(project: TestProject) {
  const apiUrl = `http://127.0.0.1:${process.env.E2E_API_PORT ?? '13100'}`;
  const liveTarget = `ws://127.0.0.1:${process.env.E2E_WS_PORT ?? '13103'}`;
  const port = Number(process.env.E2E_WEB_PORT ?? '13104');
  const build = await buildWeb({ apiUrl: '/api', outDir: `${ROOT}.local/web-e2e` });
  if (build.total > BUDGET_BYTES)
    throw new Error(`web client over budget: ${build.total} B gzipped > ${BUDGET_BYTES} B`);
  const server = await serveWeb({
    dir: build.outDir,
    apiUrl,
    liveTarget,
    port,
    objectStoreUrl: localObjectStoreEndpoint(),
  });
  const webUrl = `http://127.0.0.1:${port}`;
  console.log(`[e2e] web client ${webUrl} (JS + CSS ${(build.total / 1024).toFixed(1)} KB gzipped)`);
  project.provide('webUrl', webUrl);
  return () => new Promise<void>((resolve) => server.close(() => resolve()));
}

declare module 'vitest' {
  export interface ProvidedContext {
    webUrl: string;
  }
}
