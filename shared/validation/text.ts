// shared/validation/text.ts — zod building blocks for user-supplied text. Lengths are counted
// in Unicode code points (what a person sees as characters), not UTF-16 units.
import * as z from 'zod';
import { BIDI_CONTROL, CONTROL_CHARACTER, INVISIBLE, codePoints } from '../domain/text-rules.js';

/** Text a person typed: well-formed UTF-16 (no lone surrogates), no control characters. */
export function humanText(opts: { min: number; max: number; allowNewlines?: boolean; label: string }) {
  return (
    z
      .string()
      .refine((s) => s.isWellFormed(), `${opts.label} must be valid Unicode (no lone surrogates)`)
      .refine(
        (s) => !CONTROL_CHARACTER.test(opts.allowNewlines ? s.replace(/\r?\n/g, '') : s),
        `${opts.label} must not contain control characters`,
      )
      .refine((s) => !BIDI_CONTROL.test(s), `${opts.label} must not contain bidirectional control characters`)
      .refine(
        (s) => codePoints(s.replace(INVISIBLE, '')) >= opts.min,
        `${opts.label} must have at least ${opts.min} visible character(s)`,
      )
      .refine((s) => codePoints(s) <= opts.max, `${opts.label} must have at most ${opts.max} characters`)
      // For the OpenAPI document: JSON Schema counts string length in code points too.
      .meta({
        minLength: opts.min,
        maxLength: opts.max,
        description: `${opts.min}–${opts.max} Unicode code points (at least ${opts.min} visible); no control or bidirectional-override characters${opts.allowNewlines ? '; newlines allowed' : ''}`,
      })
  );
}
