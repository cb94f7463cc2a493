// test/unit/web-messages.test.ts — the web client can say every error the API sends, in both
// languages: each code of the contract's ErrorCode (shared/domain/error-codes.ts, the one list the
// domain errors and the route table take theirs from) and each code an operation documents has
// a sentence in web/src/i18n/messages.ts. (The web type-check holds the same at compile time.)
// A counted message has both English forms.
import { describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../../shared/domain/error-codes.js';
import { en, zh } from '../../web/src/i18n/messages.js';
import { committedDocument } from '../support/contract.js';

const doc = committedDocument();
const ERROR_CODE_REF = '#/components/schemas/ErrorCode';

interface CodeSchema {
  enum?: string[];
  $ref?: string;
  allOf?: CodeSchema[];
}

/** An operation's response, down to its error body's `code` schema (when it has one). */
interface OperationResponse {
  content?: { 'application/json'?: { schema?: { properties?: { error?: { properties?: { code?: CodeSchema } } } } } };
}

/** Every error body's `code` schema, by operation and status. */
function codeSchemas(): { where: string; schema: CodeSchema }[] {
  const out: { where: string; schema: CodeSchema }[] = [];
  for (const ops of Object.values(doc.paths) as Record<
    string,
    { operationId: string; responses: Record<string, OperationResponse> }
  >[]) {
    for (const op of Object.values(ops)) {
      for (const [status, res] of Object.entries(op.responses)) {
        const schema = res.content?.['application/json']?.schema?.properties?.error?.properties?.code;
        if (schema) out.push({ where: `${op.operationId} ${status}`, schema });
      }
    }
  }
  return out;
}

/** The codes a `code` schema allows: its own enum, or its parts' (allOf: the ErrorCode ref ∧ this operation's enum). */
const enumOf = (s: CodeSchema): string[] => [...(s.enum ?? []), ...(s.allOf ?? []).flatMap(enumOf)];

function documentedCodes(): string[] {
  const codes = new Set<string>(doc.components.schemas.ErrorCode.enum);
  for (const { schema } of codeSchemas()) for (const c of enumOf(schema)) codes.add(c);
  return [...codes].sort();
}

describe('error codes', () => {
  it('the contract names one ErrorCode, exactly the domain’s list, and every operation’s codes are among it', () => {
    expect(doc.components.schemas.ErrorCode.enum).toEqual([...ERROR_CODES]);
    const schemas = codeSchemas();
    expect(schemas.length).toBeGreaterThan(100);
    for (const { where, schema } of schemas) {
      expect(schema.allOf?.[0]?.$ref, where).toBe(ERROR_CODE_REF);
      const own = enumOf(schema);
      expect(own.length, where).toBeGreaterThan(0);
      expect(
        own.filter((c) => !(ERROR_CODES as readonly string[]).includes(c)),
        where,
      ).toEqual([]);
    }
  });
});

describe('web client messages', () => {
  it('have a sentence for every error code the API documents, in English and in Chinese', () => {
    const codes = documentedCodes();
    expect(codes.length).toBeGreaterThan(20);
    const missing = codes.filter((c) => !(`error.${c}` in en) || !zh[`error.${c}` as keyof typeof en]);
    expect(missing).toEqual([]);
    expect(Object.keys(zh).sort()).toEqual(Object.keys(en).sort());
  });

  it('say a count in English in its singular and plural forms, the plural showing it; Chinese in one form', () => {
    const counted = Object.entries(en).filter(([, m]) => typeof m !== 'string');
    expect(counted.length).toBeGreaterThan(10);
    for (const [key, m] of counted) {
      expect(typeof m === 'string' ? null : [m.one.length > 0, m.other.includes('{n}')], key).toEqual([true, true]);
      expect(typeof zh[key as keyof typeof en], key).toBe('string');
    }
  });
});
