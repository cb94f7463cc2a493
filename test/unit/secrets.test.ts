// test/unit/secrets.test.ts — secrets read at run time (shared/config/secrets.ts), turned into
// token keys by the wiring (shared/wiring/tokens.ts tokenKeysOf), and signing-key rotation without downtime
// (shared/auth/tokens.ts). The SSM reader is a fake of the project's own port (ParameterReader):
// what is tested is the caching and the rotation rules.
import { describe, expect, it } from 'vitest';
import { issueToken, keyId, verifyToken } from '../../shared/auth/tokens.js';
import { tokenKeysOf } from '../../shared/wiring/tokens.js';
import { loadConfig } from '../../shared/config/config.js';
import { RuntimeSecrets, type ParameterReader } from '../../shared/config/secrets.js';

const KEY_A = 'a'.repeat(40);
const KEY_B = 'b'.repeat(40);
const deployed = loadConfig({
  JWT_SECRET_PARAMETER: '/weibo/prod/jwt-secret',
  JWT_PREVIOUS_SECRET_PARAMETER: '/weibo/prod/jwt-secret-previous',
  HBASE_AUTHORIZATION_PARAMETER: '/weibo/prod/hbase-authorization',
  SECRETS_MAX_AGE_SECONDS: '300',
});

/** An SSM stand-in: a map of parameters, counting reads. */
function fakeSsm(initial: Record<string, string>) {
  const params = new Map(Object.entries(initial));
  const reads: string[] = [];
  const read: ParameterReader = async (name) => {
    reads.push(name);
    return params.get(name);
  };
  return { params, reads, read };
}

describe('runtime secrets', () => {
  it('reads each parameter once per max age, remembers an absent one, and sees a rotation after max age', async () => {
    const ssm = fakeSsm({ '/weibo/prod/jwt-secret': KEY_A });
    let now = 1_000_000;
    const secrets = new RuntimeSecrets(deployed, ssm.read, () => now);
    expect(await tokenKeysOf(secrets)).toEqual({ secret: KEY_A });
    expect(await Promise.all([tokenKeysOf(secrets), tokenKeysOf(secrets)])).toEqual([
      { secret: KEY_A },
      { secret: KEY_A },
    ]);
    // Two parameters (current, previous — absent), each read once.
    expect(ssm.reads).toEqual(['/weibo/prod/jwt-secret', '/weibo/prod/jwt-secret-previous']);

    // The operator rotates: previous ← A, current ← B. Within max age nothing changes…
    ssm.params.set('/weibo/prod/jwt-secret-previous', KEY_A);
    ssm.params.set('/weibo/prod/jwt-secret', KEY_B);
    now += 299_000;
    expect(await tokenKeysOf(secrets)).toEqual({ secret: KEY_A });
    // …after it, the new key signs and the old one is still accepted.
    now += 2_000;
    expect(await tokenKeysOf(secrets)).toEqual({ secret: KEY_B, previousSecret: KEY_A });
    expect(ssm.reads).toHaveLength(4);
  });

  it('names the missing parameter, and tries again on the next call after a failed read', async () => {
    const failing: ParameterReader = async () => {
      throw new Error('throttled');
    };
    const secrets = new RuntimeSecrets(deployed, failing);
    await expect(tokenKeysOf(secrets)).rejects.toThrow('throttled');
    const ssm = fakeSsm({});
    await expect(tokenKeysOf(new RuntimeSecrets(deployed, ssm.read))).rejects.toThrow(
      '/weibo/prod/jwt-secret (JWT_SECRET_PARAMETER) does not exist',
    );
    await expect(new RuntimeSecrets(deployed, ssm.read).hbaseAuthorization()).rejects.toThrow(
      '/weibo/prod/hbase-authorization',
    );
    let calls = 0;
    const flaky: ParameterReader = async () => {
      calls++;
      if (calls === 1) throw new Error('throttled');
      return 'Basic dXNlcjpwdw==';
    };
    const again = new RuntimeSecrets(deployed, flaky);
    await expect(again.hbaseAuthorization()).rejects.toThrow('throttled');
    expect(await again.hbaseAuthorization()).toBe('Basic dXNlcjpwdw==');
  });

  it('locally takes the values from variables and never reads a parameter', async () => {
    const ssm = fakeSsm({});
    const local = new RuntimeSecrets(loadConfig({ JWT_SECRET: KEY_A, HBASE_AUTHORIZATION: 'Basic x' }), ssm.read);
    expect(await tokenKeysOf(local)).toEqual({ secret: KEY_A });
    expect(await local.hbaseAuthorization()).toBe('Basic x');
    expect(ssm.reads).toEqual([]);
    await expect(tokenKeysOf(new RuntimeSecrets(loadConfig({}), ssm.read))).rejects.toThrow('JWT_SECRET');
    await expect(tokenKeysOf(new RuntimeSecrets(deployed, async () => 'short'))).rejects.toThrow(
      'at least 32 characters',
    );
  });
});

describe('signing key rotation', () => {
  const ttlSeconds = 900;
  it('a token names its key by digest; the previous key is accepted, an unknown or retired one is not', async () => {
    const before = await issueToken('amy', { secret: KEY_A, ttlSeconds });
    const header = JSON.parse(Buffer.from(before.token.split('.')[0]!, 'base64url').toString());
    expect(header).toEqual({ alg: 'HS256', typ: 'JWT', kid: keyId(KEY_A) });
    expect(before.token).not.toContain(KEY_A.slice(0, 8));

    // Mid-rotation: B signs, A is still accepted — a token from just before the switch works.
    const during = { secret: KEY_B, previousSecret: KEY_A };
    expect(await verifyToken(before.token, during)).toBe('amy');
    const after = await issueToken('bob', { ...during, ttlSeconds });
    expect(JSON.parse(Buffer.from(after.token.split('.')[0]!, 'base64url').toString()).kid).toBe(keyId(KEY_B));
    expect(await verifyToken(after.token, during)).toBe('bob');

    // Rotation finished (A retired): A's tokens are refused; so is a token naming a key nobody has.
    await expect(verifyToken(before.token, { secret: KEY_B })).rejects.toMatchObject({ code: 'invalid_token' });
    const forged = await issueToken('amy', { secret: 'c'.repeat(40), ttlSeconds });
    await expect(verifyToken(forged.token, during)).rejects.toMatchObject({ code: 'invalid_token' });
  });
});
