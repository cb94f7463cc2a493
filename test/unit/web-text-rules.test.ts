// test/unit/web-text-rules.test.ts — the text rules the web client gets in its generated limits
// (web/src/api/limits.ts BIDI_CONTROL_PATTERN, CONTROL_PATTERN) refuse exactly the texts the API's
// validation refuses for those reasons, character by character, single- and multi-line.
import { describe, expect, it } from 'vitest';
import { BIDI_CONTROL_PATTERN, CONTROL_PATTERN } from '../../web/src/api/limits.js';
import { commentBody } from '../../shared/validation/feed.schema.js';
import { updateProfileBody } from '../../shared/validation/accounts.schema.js';

const bidi = new RegExp(BIDI_CONTROL_PATTERN, 'u');
const control = new RegExp(CONTROL_PATTERN, 'u');

/** What a form would say with the generated patterns (multi-line: newlines and CRLF allowed, as the API allows them). */
const webRefuses = (s: string, multiLine: boolean) =>
  bidi.test(s) || control.test(multiLine ? s.replace(/\r?\n/g, '') : s);

/** Whether the API refuses the text for a bidi or control character (other rules kept out: the text is otherwise fine). */
function apiRefuses(s: string, multiLine: boolean): boolean {
  const result = multiLine ? commentBody.safeParse({ body: s }) : updateProfileBody.safeParse({ displayName: s });
  return !result.success && result.error.issues.some((i) => /control/.test(i.message));
}

// Every boundary of both ranges, newlines alone and in pairs, and characters that must pass.
const samples = [
  0x00, 0x09, 0x0a, 0x0d, 0x1f, 0x20, 0x7e, 0x7f, 0x80, 0x9f, 0xa0, 0x200b, 0x200d, 0x2029, 0x2029, 0x202a, 0x202e,
  0x202f, 0x2065, 0x2066, 0x2069, 0x206a, 0xfeff, 0x4e2d, 0x1f600,
].map((cp) => `ok${String.fromCodePoint(cp)}ok`);

describe('the web client’s text rules', () => {
  for (const multiLine of [false, true]) {
    it(`refuse what the API refuses (${multiLine ? 'a comment: newlines allowed' : 'a display name: one line'})`, () => {
      for (const s of [...samples, 'a\r\nb', 'a\rb', 'a\n\nb']) {
        expect(webRefuses(s, multiLine), JSON.stringify(s)).toBe(apiRefuses(s, multiLine));
      }
    });
  }
});
