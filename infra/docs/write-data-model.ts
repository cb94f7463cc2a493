// infra/docs/write-data-model.ts — `npm run docs:data-model`: rewrite docs/data-model.md from the
// schema as code (shared/schema/tables.ts). Commit the result; test/unit/data-model-doc.test.ts
// fails when the committed page differs from what this would write.
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { renderDataModel } from './data-model-document.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
writeFileSync(`${ROOT}docs/data-model.md`, renderDataModel());
console.log('wrote docs/data-model.md');
