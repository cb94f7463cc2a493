// shared/config/secrets.ts — the secrets, read at run time. Deployed, the template and the
// functions' environment hold only SSM parameter NAMES (infra/stage-settings.cjs); the values are
// read here on first use (cold start) through Powertools Parameters, decrypted, and kept for
// SECRETS_MAX_AGE_SECONDS — so a rotated key reaches every warm container within that time,
// without a deploy. The local stage passes the values themselves as variables.
//
// Rotating the signing key (docs/deploy.md, "Rotating the signing key"): copy the current key to the previous-key
// parameter, wait SECRETS_MAX_AGE_SECONDS (every container now accepts both), write the new key
// to the current parameter, and delete the previous one after max age + one token lifetime.
//
// Values come back as they are stored, plain strings: what makes a usable signing key is the
// token module's rule (shared/auth/tokens.ts tokenKeysFrom), applied by shared/wiring/tokens.ts.
import { SSMProvider } from '@aws-lambda-powertools/parameters/ssm';
import type { Config } from './config.js';

/** Reads one parameter, decrypted; undefined when it does not exist. */
export type ParameterReader = (name: string) => Promise<string | undefined>;

/**
 * Powertools' SSM provider, built on first read (the local stage never builds it). Imported
 * statically: esbuild keeps only what the provider calls of the SSM client, where a dynamic import
 * would keep the whole package in every bundle.
 */
export function ssmParameterReader(maxAgeSeconds: number): ParameterReader {
  let provider: SSMProvider | undefined;
  return async (name) => {
    provider ??= new SSMProvider();
    try {
      const value = await provider.get(name, { decrypt: true, maxAge: maxAgeSeconds });
      return typeof value === 'string' ? value : undefined;
    } catch (err) {
      if (isParameterNotFound(err)) return undefined;
      throw err;
    }
  };
}

function isParameterNotFound(err: unknown): boolean {
  for (let e: unknown = err; e instanceof Error; e = e.cause) if (e.name === 'ParameterNotFound') return true;
  return false;
}

/** The token signing secret and, during a rotation, the one before it: plain values, unchecked. */
export interface SigningSecrets {
  current: string;
  previous?: string;
}

export class RuntimeSecrets {
  private readonly cache = new Map<string, { at: number; value: Promise<string | undefined> }>();

  constructor(
    private readonly cfg: Config,
    private readonly read: ParameterReader = ssmParameterReader(cfg.SECRETS_MAX_AGE_SECONDS),
    private readonly now: () => number = Date.now,
  ) {}

  /** The signing secret and, during a rotation, the previous one. */
  async signingSecrets(): Promise<SigningSecrets> {
    const { JWT_SECRET_PARAMETER: currentName, JWT_PREVIOUS_SECRET_PARAMETER: previousName } = this.cfg;
    if (currentName === undefined) {
      if (!this.cfg.JWT_SECRET)
        throw new Error(
          'Invalid configuration: JWT_SECRET (local) or JWT_SECRET_PARAMETER (deployed) is required to issue or verify tokens',
        );
      return withPrevious(this.cfg.JWT_SECRET, this.cfg.JWT_PREVIOUS_SECRET);
    }
    const [current, previous] = await Promise.all([
      this.parameter(currentName),
      previousName === undefined ? undefined : this.parameter(previousName),
    ]);
    if (current === undefined)
      throw new Error(`Invalid configuration: the SSM parameter ${currentName} (JWT_SECRET_PARAMETER) does not exist`);
    return withPrevious(current, previous);
  }

  /** The HBase gateway's Authorization header value, if the stage has one. */
  async hbaseAuthorization(): Promise<string | undefined> {
    const name = this.cfg.HBASE_AUTHORIZATION_PARAMETER;
    if (name === undefined) return this.cfg.HBASE_AUTHORIZATION;
    const value = await this.parameter(name);
    if (value === undefined)
      throw new Error(
        `Invalid configuration: the SSM parameter ${name} (HBASE_AUTHORIZATION_PARAMETER) does not exist`,
      );
    return value;
  }

  /**
   * One read per parameter per max age, shared by concurrent callers. Absence is remembered too:
   * a previous-key parameter that does not exist (no rotation under way) costs no SSM call per
   * request. A failed read is forgotten at once, so the next request tries again.
   */
  private parameter(name: string): Promise<string | undefined> {
    const hit = this.cache.get(name);
    const now = this.now();
    if (hit && now - hit.at < this.cfg.SECRETS_MAX_AGE_SECONDS * 1000 && now >= hit.at) return hit.value;
    const value = this.read(name);
    this.cache.set(name, { at: now, value });
    value.catch(() => {
      if (this.cache.get(name)?.value === value) this.cache.delete(name);
    });
    return value;
  }
}

const withPrevious = (current: string, previous: string | undefined): SigningSecrets =>
  previous === undefined ? { current } : { current, previous };
