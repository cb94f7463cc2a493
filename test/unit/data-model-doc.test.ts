// test/unit/data-model-doc.test.ts — docs/data-model.md is what `npm run docs:data-model` writes
// from shared/schema/tables.ts today, so the page people read cannot drift from the schema.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { renderDataModel } from '../../infra/docs/data-model-document.js';
import { TABLES } from '../../shared/schema/tables.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const STALE = 'stale: run `npm run docs:data-model` and commit the result';

describe('docs/data-model.md', () => {
  it(`is the page generated from shared/schema/tables.ts (${STALE})`, () => {
    expect(readFileSync(`${ROOT}docs/data-model.md`, 'utf8'), STALE).toBe(renderDataModel());
  });

  it('has a section with the design of every table', () => {
    const page = renderDataModel();
    for (const [name, table] of Object.entries(TABLES)) {
      expect(page).toContain(`### ${name}\n`);
      expect(page).toContain(table.design.trim());
    }
  });
});
