// shared/domain/settings.ts — domain floor: a user's own settings (设置) beside the profile: who
// may send them a private message (私信), and which kinds of notification they are told of.
import type { NotificationType } from './notification.js';

/** Who may start a private conversation with the user. */
export const MESSAGES_FROM = ['everyone', 'following', 'nobody'] as const;
export type MessagesFrom = (typeof MESSAGES_FROM)[number];
/** Weibo's default: people you follow. */
export const DEFAULT_MESSAGES_FROM: MessagesFrom = 'following';

/** The kinds of notification a user can switch off, as the settings page lists them. */
export const NOTIFICATION_KINDS = ['likes', 'comments', 'reposts', 'mentions', 'follows'] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];
/** Which kinds the user is told of; every kind is on until switched off. */
export type NotificationChoices = Record<NotificationKind, boolean>;

export const ALL_NOTIFICATIONS: NotificationChoices = {
  likes: true,
  comments: true,
  reposts: true,
  mentions: true,
  follows: true,
};

/**
 * The switch a notification type answers to. A like of one's comment is a like, a reply a comment
 * to the one replied to; an edit
 * of a post you reposted has no switch (it tells you that what you passed on changed).
 */
export function kindOf(type: NotificationType): NotificationKind | null {
  switch (type) {
    case 'like':
    case 'commentLike':
      return 'likes';
    case 'comment':
    case 'reply':
      return 'comments';
    case 'repost':
      return 'reposts';
    case 'mention':
      return 'mentions';
    case 'follow':
      return 'follows';
    case 'edit':
    case 'special':
      // 特别关注 is asked for person by person: the group is the choice.
      return null;
  }
}

/** Whether a user with these choices is told of a notification of this type. */
export const wantsNotice = (choices: NotificationChoices, type: NotificationType): boolean => {
  const kind = kindOf(type);
  return kind === null || choices[kind];
};

/** A user's settings as they read them. */
export interface UserSettings {
  messagesFrom: MessagesFrom;
  notifications: NotificationChoices;
}

/** A change of settings: only what is named changes. */
export interface SettingsChange {
  messagesFrom?: MessagesFrom;
  notifications?: Partial<NotificationChoices>;
}
