// infra/openapi/write-openapi.ts — `npm run openapi`: regenerate docs/openapi.json from the route
// table, and from it the web client's types and input limits. Commit all three;
// test/unit/openapi.test.ts fails when any differs from what this would write.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { renderOpenApi } from './openapi-document.js';
import { renderWebLimits } from './web-limits.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const document = renderOpenApi();
writeFileSync(`${ROOT}docs/openapi.json`, document);
execFileSync(
  process.execPath,
  [
    `${ROOT}node_modules/openapi-typescript/bin/cli.js`,
    `${ROOT}docs/openapi.json`,
    '-o',
    `${ROOT}web/src/api/schema.d.ts`,
  ],
  { stdio: 'inherit' },
);
writeFileSync(`${ROOT}web/src/api/limits.ts`, renderWebLimits(JSON.parse(document)));
console.log('wrote docs/openapi.json, web/src/api/schema.d.ts and web/src/api/limits.ts');
