// test/support/env-int.ts — an integer setting of a bench or drill from the environment
// (underscores allowed as in 100_000), refused loudly when it is not one or is below `min`.
export function envInt(name: string, fallback: number, min = 1, env: NodeJS.ProcessEnv = process.env): number {
  const raw = env[name];
  const v = raw === undefined || raw === '' ? fallback : Number(raw.replaceAll('_', ''));
  if (!Number.isInteger(v) || v < min)
    throw new Error(`${name} must be an integer >= ${min}, got ${JSON.stringify(raw)}`);
  return v;
}
