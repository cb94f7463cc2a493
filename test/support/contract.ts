// test/support/contract.ts — holds every HTTP response the end-to-end suite receives to the
// committed OpenAPI document (docs/openapi.json): the status must be one the operation
// documents, and the body must validate against that status's schema (every schema there is
// closed: an undocumented field fails). A request that matches no operation must get the
// catch-all 404 `route_not_found`. test/support/api.ts calls this on every response.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => void;

interface ResponseObject {
  content?: { 'application/json'?: { schema: object } };
  headers?: Record<string, { required?: boolean; schema: object }>;
}
interface Operation {
  operationId: string;
  responses: Record<string, ResponseObject>;
}

/**
 * The OpenAPI document with each operation's shared responses (`$ref` to
 * `#/components/responses/…`) put in place, so a response reads the same wherever it is stated.
 */
// biome-ignore lint/suspicious/noExplicitAny: the document is arbitrary nested JSON, walked freely
export function withResponsesInPlace<D extends { paths: any; components?: any }>(doc: D): D {
  const shared = doc.components?.responses ?? {};
  for (const ops of Object.values(doc.paths) as Record<string, { responses?: Record<string, { $ref?: string }> }>[])
    for (const op of Object.values(ops))
      for (const [status, res] of Object.entries(op.responses ?? {}))
        if (res.$ref) op.responses![status] = shared[res.$ref.replace('#/components/responses/', '')];
  return doc;
}

/** The committed document, its responses in place. */
export const committedDocument = () =>
  withResponsesInPlace(
    JSON.parse(readFileSync(fileURLToPath(new URL('../../docs/openapi.json', import.meta.url)), 'utf8')),
  );

const DOC = committedDocument() as {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, object> };
};

const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
// $refs in the document point at #/components/schemas/X: register the document under an id.
ajv.addSchema({ $id: 'openapi.json', components: DOC.components } as object);

// A trailing slash reaches the same operation: serverless-offline routes `GET /users/` (a profile
// request with an empty handle) to `GET /users`, whose answer must then keep that operation's contract.
const templates = Object.entries(DOC.paths).map(([template, ops]) => ({
  template,
  ops,
  pattern: new RegExp(`^${template.replace(/[.]/g, '\\.').replace(/\{[^}]+\}/g, '[^/]+')}/?$`),
}));

const validators = new Map<string, ValidateFunction>();
function validatorFor(key: string, schema: object): ValidateFunction {
  let v = validators.get(key);
  if (!v) {
    const rebased = JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"openapi.json#/components/'));
    v = ajv.compile(rebased);
    validators.set(key, v);
  }
  return v;
}

export interface ObservedResponse {
  status: number;
  headers: Headers;
  text: string;
  json: unknown;
}

/** The operation a request reaches, or null for the catch-all route. */
export function operationFor(method: string, url: string): { template: string; op: Operation } | null {
  const path = new URL(url, 'http://x').pathname;
  for (const t of templates) {
    if (!t.pattern.test(path)) continue;
    const op = t.ops[method.toLowerCase()];
    if (op) return { template: t.template, op };
  }
  return null;
}

/** Violations of the contract by one response; empty when it keeps it. */
export function contractViolations(method: string, url: string, res: ObservedResponse): string[] {
  const where = `${method} ${new URL(url, 'http://x').pathname} → ${res.status}`;
  const found = operationFor(method, url);
  if (!found) {
    // API Gateway's `*` route: every unmatched method + path is our JSON 404.
    const body = res.json as { error?: { code?: unknown } } | undefined;
    return res.status === 404 && body?.error?.code === 'route_not_found'
      ? []
      : [
          `${where}: no operation matches, so only the catch-all 404 route_not_found may answer; got ${res.text.slice(0, 200)}`,
        ];
  }
  const { template, op } = found;
  const documented = op.responses[String(res.status)];
  if (!documented)
    return [
      `${where}: status ${res.status} is not documented for ${op.operationId} (${method} ${template}); documented: ${Object.keys(op.responses).join(', ')}`,
    ];
  const problems: string[] = [];
  for (const [name, h] of Object.entries(documented.headers ?? {})) {
    if (h.required && res.headers.get(name) === null) problems.push(`${where}: header ${name} is required`);
  }
  const schema = documented.content?.['application/json']?.schema;
  if (!schema) {
    if (res.text !== '') problems.push(`${where}: documented without a body, got ${res.text.slice(0, 200)}`);
    return problems;
  }
  if (!/^application\/json\b/.test(res.headers.get('content-type') ?? ''))
    problems.push(`${where}: content-type ${res.headers.get('content-type')} is not application/json`);
  const validate = validatorFor(`${op.operationId} ${res.status}`, schema);
  if (!validate(res.json)) {
    problems.push(
      `${where}: body does not match ${op.operationId}'s ${res.status} schema: ${ajv.errorsText(validate.errors)}; body ${res.text.slice(0, 300)}`,
    );
  }
  return problems;
}

/** Thrown for a response that breaks the contract: a finding, never a "no answer" to resend. */
export class ContractViolation extends Error {}

export function assertContract(method: string, url: string, res: ObservedResponse): void {
  const problems = contractViolations(method, url, res);
  if (problems.length)
    throw new ContractViolation(`API contract violated (docs/openapi.json):\n  ${problems.join('\n  ')}`);
}
