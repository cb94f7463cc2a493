// shared/ports/user-store.ts — what the account use cases need from storage. Implemented by
// shared/adapters/hbase/hbase-user-store.ts; unit tests may fake it.
// Only an active account is anyone's face, mention, search result or profile: a deactivated or
// erased one reads as nobody there (docs/consistency.md Q), except to its own login.
import type { Standing } from '../domain/leaving.js';
import type { NotificationChoices, SettingsChange, UserSettings } from '../domain/settings.js';

export interface NewUser {
  handle: string;
  displayName: string;
  passwordHash: string;
  createdAt: number;
  /** Its naming version (people-index.ts), when the people index has its entries; absent: not findable by name. */
  naming?: string;
}

export interface UserProfile {
  handle: string;
  displayName: string;
  createdAt: number;
  followers: number;
  following: number;
  posts: number;
  /** The media id of the current avatar; absent when the user has none. */
  avatar?: string;
  /** The 简介 (bio) and the location, as the user wrote them; absent when none. */
  bio?: string;
  location?: string;
  /** The media id of the current cover picture; absent when the user has none. */
  cover?: string;
  /** Whether others may see the account (domain/leaving.ts). */
  standing: Standing;
}

/** What a login checks: the password record, the account's standing, and its session epoch. */
export interface Credentials {
  hash: string;
  standing: Standing;
  /** Sessions started under another epoch are over (a deactivation draws a new one; '' = the first). */
  epoch: string;
}

/** How a user shows beside what they wrote or did: their name and avatar (a media id). */
export interface UserFace {
  handle: string;
  displayName: string;
  avatar?: string;
}

/** What a profile says of its user in their own words; a field given as '' is cleared. */
export interface ProfileText {
  bio?: string;
  location?: string;
}

/** A user as a search shows them: face and follower count, and which naming is current. */
export interface FindableUser extends UserFace {
  followers: number;
  /** The current naming version (null: registered before the people index, not findable by name). */
  naming: string | null;
}

/** Where the faces of users are read (UserStore; or a short-lived cache of it for feeds). */
export interface FaceDirectory {
  /** The faces of those of `handles` that are active users (one read). */
  faces(handles: string[]): Promise<Map<string, UserFace>>;
}

/** Where a user's data export stands (use-cases/export-data.ts): the last build asked for, and the last one done. */
export interface ExportState {
  /** When the latest build was asked for (its id); absent: never. */
  requestedAt?: number;
  /** The latest build done: the one asked at `requestedAt`, its file, and when it was done. */
  done?: { requestedAt: number; key: string; builtAt: number };
}

export interface UserStore extends FaceDirectory {
  /** Creates the account unless its handle is taken: true = created, false = taken (by an account or a reservation). */
  create(user: NewUser): Promise<boolean>;
  /** The password record, standing and session epoch (one read), or null for an unknown handle. */
  credentials(handle: string): Promise<Credentials | null>;
  /** What a refresh checks: the standing and the session epoch (one read), null for an unknown handle. */
  sessionGate(handle: string): Promise<Omit<Credentials, 'hash'> | null>;
  /** The profile whatever the standing (callers showing it to others check `standing`). */
  profile(handle: string): Promise<UserProfile | null>;
  /**
   * Deactivates an active account: standing deactivated at `at` and the session epoch `epoch`,
   * together and only while the standing is active. False when it was not (already deactivated,
   * or erased), which then stays.
   */
  deactivate(handle: string, at: number, epoch: string): Promise<boolean>;
  /** A deactivated account active again, if its standing is still `from`: false when it moved. */
  restore(handle: string, from: Standing): Promise<boolean>;
  /** Where the user's data export stands (one read). */
  exportState(handle: string): Promise<ExportState>;
  /** Asks for a build at `at`, if the latest asked is still `from` (null = none): false when another asked first. */
  askExport(handle: string, from: number | null, at: number): Promise<boolean>;
  /** The build asked at `requestedAt` is done as `key`, if it is still the latest asked: false when a newer one was. */
  exportDone(handle: string, requestedAt: number, key: string, builtAt: number): Promise<boolean>;
  /** Which of `handles` are active users (one read): mentions of others are plain text. */
  existing(handles: string[]): Promise<Set<string>>;
  /**
   * Replaces the password hash record only if it is still `from`: false when it changed
   * meanwhile, which then stays.
   */
  replacePasswordHash(handle: string, from: string, to: string): Promise<boolean>;
  /** The display name and current naming version of a user (null: none yet); null for an unknown handle. */
  naming(handle: string): Promise<{ displayName: string; naming: string | null } | null>;
  /**
   * Sets the display name and the naming version `to` together if the naming is still `from`
   * (null = none): false when it changed meanwhile. Only for a user that exists.
   */
  rename(handle: string, displayName: string, from: string | null, to: string, text?: ProfileText): Promise<boolean>;
  /** Sets the bio and location named (one row write: both or neither). Only for a user that exists. */
  describe(handle: string, text: ProfileText): Promise<void>;
  /**
   * Sets the cover (a media id, or null for none) if it is still `from` (null = none): false
   * when it changed meanwhile, or the user does not exist.
   */
  replaceCover(handle: string, from: string | null, to: string | null): Promise<boolean>;
  /** The user's own settings (one read); defaults where never set; null for an unknown handle. */
  settings(handle: string): Promise<UserSettings | null>;
  /** Writes what the change names (one row write: all of it or none). Only for a user that exists. */
  changeSettings(handle: string, change: SettingsChange): Promise<void>;
  /** Which notifications each of `handles` is told of (one read); defaults for unknown handles. */
  notificationChoices(handles: string[]): Promise<Map<string, NotificationChoices>>;
  /** Of `handles`, the active users as a search shows them (one read). */
  findable(handles: string[]): Promise<Map<string, FindableUser>>;
  /**
   * Sets the avatar (a media id, or null for none) if it is still `from` (null = none): false
   * when it changed meanwhile, or the user does not exist.
   */
  replaceAvatar(handle: string, from: string | null, to: string | null): Promise<boolean>;
}

/** One login attempt as counted, this attempt included. */
export interface LoginAttempt {
  /** Attempts from this source at this handle since its last success. */
  sourceAttempts: number;
  /** Millis until which this source is locked out of this handle (0: never locked). */
  lockedUntil: number;
  /** Failed attempts at this handle from every source in the current global window. */
  globalAttempts: number;
}

/**
 * Login throttling per (handle, source) with a per-handle ceiling across sources; works the
 * same for handles that do not exist. `window` is the global window's index (log-in.ts).
 */
export interface LoginThrottle {
  /** Counts the attempt BEFORE anything is verified and returns the counts including it. */
  count(handle: string, source: string, window: number): Promise<LoginAttempt>;
  /**
   * Locks the source out until `until`, if its lock is still the one the attempt saw
   * (`seen`, 0 = none): of racing attempts that saw the same lock exactly one gets true.
   */
  lock(handle: string, source: string, seen: number, until: number): Promise<boolean>;
  /** A correct password: the source starts afresh, and the attempt leaves the global count. */
  succeeded(handle: string, source: string, window: number): Promise<void>;
}
