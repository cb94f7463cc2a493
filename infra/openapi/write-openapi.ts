// infra/openapi/write-openapi.ts — `npm run openapi`: regenerate docs/openapi.json from the route
// table and the web client's types from it. Commit both; test/unit/openapi.test.ts fails when
// either differs from what this would write.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { renderOpenApi } from './openapi-document.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
writeFileSync(`${ROOT}docs/openapi.json`, renderOpenApi());
execFileSync(process.execPath, [`${ROOT}node_modules/openapi-typescript/bin/cli.js`, `${ROOT}docs/openapi.json`, '-o', `${ROOT}web/src/api/schema.d.ts`], { stdio: 'inherit' });
console.log('wrote docs/openapi.json and web/src/api/schema.d.ts');
