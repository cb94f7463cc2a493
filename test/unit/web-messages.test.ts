// test/unit/web-messages.test.ts — the web client can say every error the API documents, in
// both languages: each `code` in docs/openapi.json has a sentence in web/src/i18n/messages.ts.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { en, zh } from '../../web/src/i18n/messages.js';

const doc = JSON.parse(readFileSync(new URL('../../docs/openapi.json', import.meta.url), 'utf8'));

function documentedCodes(): string[] {
  const codes = new Set<string>();
  for (const ops of Object.values(doc.paths) as Record<string, { responses: Record<string, any> }>[]) {
    for (const op of Object.values(ops)) {
      for (const res of Object.values(op.responses)) {
        const code = res.content?.['application/json']?.schema?.properties?.error?.properties?.code;
        for (const c of code?.enum ?? []) codes.add(c);
      }
    }
  }
  return [...codes].sort();
}

describe('web client messages', () => {
  it('have a sentence for every error code the API documents, in English and in Chinese', () => {
    const codes = documentedCodes();
    expect(codes.length).toBeGreaterThan(20);
    const missing = codes.filter((c) => !(`error.${c}` in en) || !zh[`error.${c}` as keyof typeof en]);
    expect(missing).toEqual([]);
    expect(Object.keys(zh).sort()).toEqual(Object.keys(en).sort());
  });
});
