// shared/wiring/messages.ts — private messages' ports: the feed's HBase stores they share (users,
// blocks, relations, the write quota, the messages table), the live channel to tell both sides,
// and pictures where the stage has a media bucket.
import { config, messageLimits } from '../config/config.js';
import type { MessageDeps } from '../use-cases/messages.js';
import { feedDependencies } from './feed.js';
import { liveDependencies } from './live.js';
import { messagePictureDependencies } from './message-pictures.js';

let deps: MessageDeps | undefined;
/** Built on first use. */
export function messageDependencies(): MessageDeps {
  if (deps) return deps;
  const feed = feedDependencies();
  const live = liveDependencies();
  deps = {
    messages: feed.messages!,
    users: feed.users,
    blocks: feed.blocks,
    relations: feed.relations,
    quota: feed.quota,
    limits: messageLimits(config()),
    ...(feed.pictures ? { pictures: feed.pictures, messagePictures: messagePictureDependencies() } : {}),
    live: { live: live.live, push: live.push, positions: live.positions },
  };
  return deps;
}
