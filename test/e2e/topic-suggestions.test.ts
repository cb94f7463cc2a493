// test/e2e/topic-suggestions.test.ts — GET /topics?q= over HTTP through serverless-offline: names
// a published post carried, found by their start without a token; what cannot start a topic
// name is a 422 `validation_failed` with the JSON error shape. Every response is checked against the OpenAPI
// document by the api client (test/support/contract.ts).
import { randomBytes } from 'node:crypto';
import { describe, expect, inject, it } from 'vitest';
import { apiClient, isErrorShape } from '../support/api.js';

const api = apiClient(inject('apiUrl'));

describe('topic suggestions over HTTP', () => {
  it('finds a published topic by its start; refuses bad prefixes and limits with a 422', async () => {
    const ann = await api.newUser('ts_ann');
    const stem = `话题${randomBytes(3).toString('hex')}`;
    const posted = await api.call('POST', '/posts', { token: ann.token, body: { body: `#${stem}甲# #${stem}乙#` } });
    expect(posted.status).toBe(201);
    const found = await api.call('GET', `/topics?q=${encodeURIComponent(`#${stem}`)}&limit=5`);
    expect(found.status).toBe(200);
    expect(found.json).toEqual({
      topics: [{ name: `${stem}乙` }, { name: `${stem}甲` }].toSorted((a, b) => (a.name < b.name ? -1 : 1)),
    });
    for (const q of [
      '?q=',
      '?q=%23',
      '?q=a%2Fb',
      '?q=50%25',
      `?q=${'x'.repeat(40)}`,
      '?q=a&limit=0',
      '?q=a&limit=21',
      '',
    ]) {
      const res = await api.call('GET', `/topics${q}`);
      expect(res.status, q).toBe(422);
      expect(isErrorShape(res.json), q).toBe(true);
      expect(res.json.error.code, q).toBe('validation_failed');
    }
  });
});
