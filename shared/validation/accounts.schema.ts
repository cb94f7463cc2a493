// shared/validation/accounts.schema.ts — edge validation for register, login and profile.
import * as z from 'zod';
import { HANDLE_MAX_LENGTH, HANDLE_PATTERN } from '../domain/handle.js';
import { PEOPLE_DEFAULT, PEOPLE_MAX, QUERY_MAX_LENGTH, searchForm } from '../domain/people-search.js';
import { humanText } from './text.js';
import { BIO_MAX_CODE_POINTS, LOCATION_MAX_CODE_POINTS, PASSWORD_MAX, PASSWORD_MIN } from '../domain/limits.js';
import { MESSAGES_FROM } from '../domain/settings.js';

export const handleSchema = z
  .string()
  .regex(HANDLE_PATTERN, 'handle: 1–30 characters of a–z, 0–9 and _ (lowercase)')
  // For the OpenAPI document (the pattern already bounds it): forms take their maxLength from it.
  .meta({ maxLength: HANDLE_MAX_LENGTH });

const passwordSchema = humanText({ min: PASSWORD_MIN, max: PASSWORD_MAX, label: 'password' });

const displayName = humanText({ min: 1, max: 50, label: 'displayName' });

export const registerBody = z.strictObject({
  handle: handleSchema,
  displayName,
  password: passwordSchema,
});

// Login does not re-check the password rules: a wrong password is a 401, never a hint.
export const loginBody = z.strictObject({
  handle: z.string().max(64),
  password: z.string().max(1024),
});

/** Leaving asks for the password again; like a login's, a wrong one is a 401 and never a hint. */
export const leaveBody = z.strictObject({
  password: z.string().max(1024),
});

// A refresh token is opaque to clients; anything that is not one of ours is a 401, never a hint.
// Absent: a browser's refresh and logout use the session cookie instead (shared/http/session-cookie.ts).
export const refreshBody = z.strictObject({
  refreshToken: z.string().max(256).optional(),
});

/** Marks a browser client's session calls: its refresh token then travels in an HttpOnly cookie. */
export const sessionHeaders = z.object({
  'x-weibo-client': z.string().max(32).optional().meta({
    description:
      '`web` from a browser: the refresh token is set as an HttpOnly cookie (Path = the session routes as the browser sees them) and left out of the JSON; refresh and logout without a body token read that cookie, and refuse a request without this header (403 `client_header_required`).',
  }),
});

export const handlePath = z.object({ handle: handleSchema });

export const updateProfileBody = z
  .strictObject({
    displayName: displayName.optional(),
    bio: humanText({ min: 0, max: BIO_MAX_CODE_POINTS, allowNewlines: true, label: 'bio' })
      .optional()
      .meta({ description: 'The 简介 (bio); empty clears it' }),
    location: humanText({ min: 0, max: LOCATION_MAX_CODE_POINTS, label: 'location' })
      .optional()
      .meta({ description: 'Where you are, free text; empty clears it' }),
  })
  .refine((b) => b.displayName !== undefined || b.bio !== undefined || b.location !== undefined, {
    message: 'name at least one of displayName, bio, location',
  });

const notificationSwitch = z.boolean().optional();
export const settingsBody = z
  .strictObject({
    messagesFrom: z.enum(MESSAGES_FROM).optional().meta({ description: 'Who may send you a private message (私信)' }),
    notifications: z
      .strictObject({
        likes: notificationSwitch,
        comments: notificationSwitch,
        reposts: notificationSwitch,
        mentions: notificationSwitch,
        follows: notificationSwitch,
      })
      .optional()
      .meta({ description: 'The kinds of notification to switch on (true) or off (false); those left out stay' }),
  })
  .refine((b) => b.messagesFrom !== undefined || b.notifications !== undefined, {
    message: 'name at least one of messagesFrom, notifications',
  });

export const avatarBody = z.strictObject({
  mediaId: z
    .string()
    .min(1)
    .max(64)
    .meta({ description: 'A picture uploaded with `purpose: avatar` (`POST /media`), processed (`ready`)' }),
});

export const coverBody = z.strictObject({
  mediaId: z
    .string()
    .min(1)
    .max(64)
    .meta({ description: 'A picture uploaded with `purpose: cover` (`POST /media`), processed (`ready`)' }),
});

export const peopleQuery = z.strictObject({
  q: humanText({ min: 1, max: QUERY_MAX_LENGTH, label: 'q' })
    .refine((q) => searchForm(q).length > 0, 'q: a name or handle to look for')
    .meta({
      description:
        'The start of a handle or display name (a leading @ is ignored); compared case-insensitively, in NFKC form',
      example: 'ann',
    }),
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(PEOPLE_MAX)
    .default(PEOPLE_DEFAULT)
    .meta({ description: 'How many people, at most' }),
});
