// shared/ports/user-store.ts — what the account use cases need from storage. One HBase
// implementation (shared/adapters/hbase/hbase-user-store.ts); unit tests may fake it.

export interface NewUser {
  handle: string;
  displayName: string;
  passwordHash: string;
  createdAt: number;
}

export interface UserProfile {
  handle: string;
  displayName: string;
  createdAt: number;
  followers: number;
  following: number;
  posts: number;
}

export interface UserStore {
  /** Put-if-absent on the handle: true = created, false = the handle was already taken. */
  create(user: NewUser): Promise<boolean>;
  /** The stored password hash record, or null for an unknown handle. */
  passwordHash(handle: string): Promise<string | null>;
  profile(handle: string): Promise<UserProfile | null>;
  /** Which of `handles` are registered users (one multi-get): mentions of others are plain text. */
  existing(handles: string[]): Promise<Set<string>>;
  /** Only touches an existing user: false when the handle does not exist. */
  updateDisplayName(handle: string, displayName: string): Promise<boolean>;
}

export interface ThrottleState {
  failures: number;
  lockedUntil: number;
}

/** Per-handle login throttling; works the same for handles that do not exist. */
export interface LoginThrottle {
  read(handle: string): Promise<ThrottleState>;
  recordFailure(handle: string, lockUntil: number | null): Promise<void>;
  reset(handle: string): Promise<void>;
}
