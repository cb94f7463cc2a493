// web/src/features/messages/api.ts — the 私信 routes (docs/openapi.json, tag `messages`), each a
// typed call through the one API client (api/client.ts: its token, renewals and ApiProblem
// errors), and the views' types as the generated schema names them.
import { api, call } from '../../api/client';
import type { components } from '../../api/schema';

type Schemas = components['schemas'];
/** The other person of a conversation; `left`: the account is gone (已注销). */
export type Person = Schemas['Person'];
/** A message's picture: short-lived signed URLs (a few minutes). */
export type MessagePicture = Schemas['MessagePicture'];
/** One message; a recalled (撤回) or erased one (its sender's account gone) has no text or pictures. */
export type Message = Schemas['Message'];
/** A conversation in the list, with its last message (its pictures counted). */
export type Conversation = Schemas['ConversationSummary'];
export type LastMessage = NonNullable<Conversation['last']>;
/** open: both write; request: they asked me (the requests tab); requested: I asked, not yet accepted. */
export type ConversationState = Conversation['state'];
/** One conversation's messages, oldest → newest; `nextCursor` pages to older ones. */
export type Thread = Schemas['Conversation'];
/** The badge: unread messages in the main list, and requests waiting for an answer. */
export type MessagesUnread = Schemas['MessageBadge'];
export type Box = 'main' | 'requests';

/** Messages a list or thread page asks for. */
const LIST_PAGE = 20;
const THREAD_PAGE = 30;

const page = (cursor?: string) => (cursor ? { cursor } : {});

export const messagesApi = {
  list: async (me: string, box: Box, cursor?: string) =>
    (
      await call(
        api.GET('/users/{handle}/conversations', {
          params: { path: { handle: me }, query: { box, limit: LIST_PAGE, ...page(cursor) } },
        }),
      )
    ).data,

  /** The badge's count: a background request (it waits for the page's own, api/client.ts). */
  unread: async (me: string) =>
    (
      await call(api.GET('/users/{handle}/message-badge', { params: { path: { handle: me } } }), {
        background: true,
      })
    ).data,

  thread: async (me: string, peer: string, cursor?: string, { background = false } = {}) =>
    (
      await call(
        api.GET('/users/{handle}/conversations/{peer}', {
          params: { path: { handle: me, peer }, query: { limit: THREAD_PAGE, ...page(cursor) } },
        }),
        { background },
      )
    ).data,

  send: async (me: string, peer: string, body: { text: string; media?: string[]; clientId: string }) =>
    (
      await call(
        api.POST('/users/{handle}/conversations/{peer}/messages', { params: { path: { handle: me, peer } }, body }),
      )
    ).data,

  read: async (me: string, peer: string, upTo: number) =>
    (
      await call(
        api.POST('/users/{handle}/conversations/{peer}/read', {
          params: { path: { handle: me, peer } },
          body: { upTo },
        }),
        { background: true },
      )
    ).data,

  accept: async (me: string, peer: string) =>
    (await call(api.POST('/users/{handle}/conversations/{peer}/accept', { params: { path: { handle: me, peer } } })))
      .data,

  decline: async (me: string, peer: string) =>
    (await call(api.POST('/users/{handle}/conversations/{peer}/decline', { params: { path: { handle: me, peer } } })))
      .data,

  recall: async (me: string, peer: string, seq: number) =>
    (
      await call(
        api.POST('/users/{handle}/conversations/{peer}/messages/{seq}/recall', {
          params: { path: { handle: me, peer, seq } },
        }),
      )
    ).data,

  deleteMessage: async (me: string, peer: string, seq: number) =>
    (
      await call(
        api.DELETE('/users/{handle}/conversations/{peer}/messages/{seq}', {
          params: { path: { handle: me, peer, seq } },
        }),
      )
    ).data,

  deleteConversation: async (me: string, peer: string) =>
    (await call(api.DELETE('/users/{handle}/conversations/{peer}', { params: { path: { handle: me, peer } } }))).data,
};
