// shared/use-cases/entities.ts — @mentions and #topics# of a body, parsed ONCE at write time and
// stored with the post or comment (reads never parse). A mention of a handle nobody registered
// is plain text: the mentioned handles are checked in one multi-get of the users table.
import {
  mentionedHandles,
  parseMentions,
  parseTopics,
  type MentionSpan,
  type TopicSpan,
} from '../domain/text-entities.js';
import type { FeedDeps } from './feed-deps.js';

export interface BodyEntities {
  mentions?: MentionSpan[];
  topics?: TopicSpan[];
}

export async function entitiesOf(
  deps: Pick<FeedDeps, 'users'>,
  body: string,
  opts: { topics: boolean },
): Promise<BodyEntities> {
  const spans = parseMentions(body);
  const registered = spans.length === 0 ? new Set<string>() : await deps.users.existing(mentionedHandles(spans));
  const mentions = spans.filter((m) => registered.has(m.handle));
  const topics = opts.topics ? parseTopics(body) : [];
  return { ...(mentions.length > 0 ? { mentions } : {}), ...(topics.length > 0 ? { topics } : {}) };
}
