// shared/ports/credentials.ts — port: what a login needs of cryptography, in the product's words.
// Passwords are stored only as slow salted hashes; an access token is a signed, short-lived proof
// of whom a request acts for. Adapters: shared/auth/ (scrypt, JWT).

/** Turns a password into what is kept, and checks a password against what was kept. */
export interface Passwords {
  hash(password: string): Promise<string>;
  verify(password: string, kept: string): Promise<boolean>;
  /** What was kept was made weaker than today's hashes: hash the password again after a good login. */
  needsRehash(kept: string): boolean;
  /** A hash no password matches: checked against when there is no account, so a miss costs what a hit costs. */
  dummy(): Promise<string>;
}

/** Issues the access tokens a session hands out. */
export interface AccessTokens {
  /** A token for `handle` issued at `now`, and when it expires (millis). */
  issue(handle: string, now: number): Promise<{ token: string; expiresAt: number }>;
}
