// shared/wiring/accounts.ts — accounts and sessions: registering, logging in and out, refreshing
// a session, leaving. The users, the people index, the login throttle and the sessions on HBase,
// and the token settings; no queue and no object store.
import { HBasePeopleIndex } from '../adapters/hbase/hbase-people-index.js';
import { HBaseSessionStore } from '../adapters/hbase/hbase-session-store.js';
import { HBaseLoginThrottle, HBaseUserStore } from '../adapters/hbase/hbase-user-store.js';
import { config } from '../config/config.js';
import { scryptPasswords } from '../auth/password.js';
import type { AccessTokens, Passwords } from '../ports/credentials.js';
import type { LoginPolicy } from '../use-cases/log-in.js';
import { hbaseClient } from './hbase.js';
import { accessTokens } from './tokens.js';

export interface AccountDependencies {
  users: HBaseUserStore;
  people: HBasePeopleIndex;
  throttle: HBaseLoginThrottle;
  sessions: HBaseSessionStore;
  passwords: Passwords;
  /** The access tokens, signed with the current key (read at run time). */
  tokens(): Promise<AccessTokens>;
  refreshTtlSeconds: number;
  /** The refresh cookie's Path (shared/http/session-cookie.ts). */
  sessionCookiePath: string;
  loginPolicy: LoginPolicy;
}

let accounts: AccountDependencies | undefined;
export function accountDependencies(): AccountDependencies {
  if (accounts) return accounts;
  const cfg = config();
  const hbase = hbaseClient();
  const ns = cfg.HBASE_NAMESPACE;
  accounts = {
    users: new HBaseUserStore(hbase, ns),
    people: new HBasePeopleIndex(hbase, ns),
    throttle: new HBaseLoginThrottle(hbase, ns),
    sessions: new HBaseSessionStore(hbase, ns),
    passwords: scryptPasswords,
    tokens: accessTokens,
    refreshTtlSeconds: cfg.REFRESH_TOKEN_TTL_SECONDS,
    sessionCookiePath: cfg.SESSION_COOKIE_PATH,
    loginPolicy: {
      maxFailures: cfg.LOGIN_MAX_FAILURES,
      lockSeconds: cfg.LOGIN_LOCK_SECONDS,
      globalMaxFailures: cfg.LOGIN_GLOBAL_MAX_FAILURES,
      globalWindowSeconds: cfg.LOGIN_GLOBAL_WINDOW_SECONDS,
    },
  };
  return accounts;
}
