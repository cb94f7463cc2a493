// shared/wiring/tokens.ts — the access tokens' keys and lifetime (config/ reads the secrets;
// auth/ says what a usable key is). What authentication needs, and nothing of the data.
import { jwtAccessTokens, tokenKeysFrom, type TokenKeys, type TokenSettings } from '../auth/tokens.js';
import type { AccessTokens } from '../ports/credentials.js';
import { config } from '../config/config.js';
import type { RuntimeSecrets } from '../config/secrets.js';
import { runtimeSecrets } from './secrets.js';

/** The token keys from the secrets as read. */
export async function tokenKeysOf(secrets: Pick<RuntimeSecrets, 'signingSecrets'>): Promise<TokenKeys> {
  const { current, previous } = await secrets.signingSecrets();
  return tokenKeysFrom(current, previous);
}

/** The keys access tokens are verified with (read at run time). */
export const tokenKeys = (): Promise<TokenKeys> => tokenKeysOf(runtimeSecrets());

/** Signing and verifying keys and the access tokens' lifetime. */
export const tokenSettings = async (): Promise<TokenSettings> => ({
  ...(await tokenKeys()),
  ttlSeconds: config().TOKEN_TTL_SECONDS,
});

/** The access tokens a session issues, with the keys as read now. */
export const accessTokens = async (): Promise<AccessTokens> => jwtAccessTokens(await tokenSettings());
