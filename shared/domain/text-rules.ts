// shared/domain/text-rules.ts — domain: which characters no text a person writes may hold. The ONE
// definition: the API's validation (shared/validation/text.ts) and topic names
// (text-entities.ts) test with these, and `npm run openapi` writes their sources into the web
// client's generated limits (web/src/api/limits.ts), so the forms say the same before sending.

/**
 * Bidirectional embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069): they can
 * make text read otherwise than it is stored (a spoofing tool), so they are refused, not stripped.
 */
export const BIDI_CONTROL = /[\u202a-\u202e\u2066-\u2069]/u;

/**
 * C0 controls (NUL included), DEL and C1 controls. Multi-line fields allow newlines (`\n` and
 * `\r\n`): those are taken out before this test, never added to it.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is this pattern's purpose; its source is published (web/src/api/limits.ts)
export const CONTROL_CHARACTER = /[\u0000-\u001f\u007f-\u009f]/u;

/** Length in Unicode code points: what a person sees as characters, not UTF-16 units. */
export const codePoints = (s: string): number => [...s].length;

// Invisible format characters (zero-width space/joiners, BOM, …): allowed inside text (emoji
// sequences need ZWJ) but they do not count as visible characters.
export const INVISIBLE = /[\p{Cf}\s]/gu;

/** Code points that show (invisible ones, such as zero-width spaces, not counted). */
export const visibleLength = (s: string): number => codePoints(s.replace(INVISIBLE, ''));
