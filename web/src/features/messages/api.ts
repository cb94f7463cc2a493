// web/src/features/messages/api.ts — the 私信 routes (docs/api.md, "Messages"), each a typed
// call through the one API client (api/client.ts: its token, renewals and ApiProblem errors).
// The views are typed locally from the contract until the routes are in the generated
// schema.d.ts; the functions below are what the pages use either way.
import type { Client } from 'openapi-fetch';
import { api, call } from '../../api/client';

/** The other person of a conversation; `left`: the account is gone (已注销). */
export interface Person {
  handle: string;
  displayName: string;
  avatar: string | null;
  left: boolean;
}

/** A message's picture: short-lived signed URLs (about 10 minutes). */
export interface MessagePicture {
  id: string;
  width: number;
  height: number;
  urls: { thumb: string; large: string };
}

/** One message; a recalled (撤回) or erased one (its sender's account gone) has no text or pictures. */
export interface Message {
  seq: number;
  from: string;
  text: string;
  pictures: MessagePicture[];
  /** ISO 8601 */
  at: string;
  recalled: boolean;
  erased: boolean;
  clientId: string;
}

/** A conversation's last message as a list shows it: its pictures counted. */
export type LastMessage = Omit<Message, 'pictures' | 'clientId'> & { pictures: number };

/** open: both write; request: they asked me (the requests tab); requested: I asked, not yet accepted. */
export type ConversationState = 'open' | 'request' | 'requested';

export interface Conversation {
  peer: Person;
  state: ConversationState;
  last: LastMessage | null;
  unread: number;
  /** ISO 8601 */
  activityAt: string;
  readUpTo: number;
  peerReadUpTo: number;
}

export interface ConversationPage {
  conversations: Conversation[];
  nextCursor?: string | null;
}

/** One conversation's messages, oldest → newest; `nextCursor` pages to older ones. */
export interface Thread {
  peer: Person;
  state: ConversationState;
  messages: Message[];
  readUpTo: number;
  peerReadUpTo: number;
  head: number;
  nextCursor?: string | null;
}

export interface MessagesUnread {
  unread: number;
  requests: number;
}

export type Box = 'main' | 'requests';

// The routes in openapi-typescript's shape, so the calls below read as the generated ones will.
type Json<T> = { content: { 'application/json': T } };
type Op<Path, Query = never, Body = never, Answer = unknown> = {
  parameters: { path: Path; query?: Query; header?: never; cookie?: never };
  responses: { 200: { headers: Record<string, unknown> } & Json<Answer>; 201: Json<Answer> };
} & ([Body] extends [never] ? { requestBody?: never } : { requestBody: Json<Body> });
type NoMethods = {
  parameters: { query?: never; header?: never; path?: never; cookie?: never };
  get?: never;
  put?: never;
  post?: never;
  delete?: never;
  options?: never;
  head?: never;
  patch?: never;
  trace?: never;
};
type Item<M> = Omit<NoMethods, keyof M> & M;
type Me = { handle: string };
type Pair = { handle: string; peer: string };
type Paths = {
  '/users/{handle}/conversations': Item<{
    get: Op<Me, { box?: Box; limit?: number; cursor?: string }, never, ConversationPage>;
  }>;
  '/users/{handle}/message-badge': Item<{ get: Op<Me, never, never, MessagesUnread> }>;
  '/users/{handle}/conversations/{peer}': Item<{
    get: Op<Pair, { limit?: number; cursor?: string }, never, Thread>;
    delete: Op<Pair, never, never, { deleted: true }>;
  }>;
  '/users/{handle}/conversations/{peer}/messages': Item<{
    post: Op<
      Pair,
      never,
      { text: string; media?: string[]; clientId: string },
      { message: Message; state: ConversationState }
    >;
  }>;
  '/users/{handle}/conversations/{peer}/read': Item<{ post: Op<Pair, never, { upTo: number }, { readUpTo: number }> }>;
  '/users/{handle}/conversations/{peer}/accept': Item<{ post: Op<Pair, never, never, { state: 'open' }> }>;
  '/users/{handle}/conversations/{peer}/decline': Item<{ post: Op<Pair, never, never, { declined: true }> }>;
  '/users/{handle}/conversations/{peer}/messages/{seq}/recall': Item<{
    post: Op<Pair & { seq: number }, never, never, Message>;
  }>;
  '/users/{handle}/conversations/{peer}/messages/{seq}': Item<{
    delete: Op<Pair & { seq: number }, never, never, { deleted: true }>;
  }>;
};
/** The same client, seen with the message routes' types. */
const dm = api as unknown as Client<Paths>;

/** Messages a list or thread page asks for. */
const LIST_PAGE = 20;
const THREAD_PAGE = 30;

const page = (cursor?: string) => (cursor ? { cursor } : {});

export const messagesApi = {
  list: async (me: string, box: Box, cursor?: string) =>
    (
      await call(
        dm.GET('/users/{handle}/conversations', {
          params: { path: { handle: me }, query: { box, limit: LIST_PAGE, ...page(cursor) } },
        }),
      )
    ).data,

  /** The badge's count: a background request (it waits for the page's own, api/client.ts). */
  unread: async (me: string) =>
    (
      await call(dm.GET('/users/{handle}/message-badge', { params: { path: { handle: me } } }), {
        background: true,
      })
    ).data,

  thread: async (me: string, peer: string, cursor?: string, { background = false } = {}) =>
    (
      await call(
        dm.GET('/users/{handle}/conversations/{peer}', {
          params: { path: { handle: me, peer }, query: { limit: THREAD_PAGE, ...page(cursor) } },
        }),
        { background },
      )
    ).data,

  send: async (me: string, peer: string, body: { text: string; media?: string[]; clientId: string }) =>
    (
      await call(
        dm.POST('/users/{handle}/conversations/{peer}/messages', { params: { path: { handle: me, peer } }, body }),
      )
    ).data,

  read: async (me: string, peer: string, upTo: number) =>
    (
      await call(
        dm.POST('/users/{handle}/conversations/{peer}/read', {
          params: { path: { handle: me, peer } },
          body: { upTo },
        }),
        { background: true },
      )
    ).data,

  accept: async (me: string, peer: string) =>
    (await call(dm.POST('/users/{handle}/conversations/{peer}/accept', { params: { path: { handle: me, peer } } })))
      .data,

  decline: async (me: string, peer: string) =>
    (await call(dm.POST('/users/{handle}/conversations/{peer}/decline', { params: { path: { handle: me, peer } } })))
      .data,

  recall: async (me: string, peer: string, seq: number) =>
    (
      await call(
        dm.POST('/users/{handle}/conversations/{peer}/messages/{seq}/recall', {
          params: { path: { handle: me, peer, seq } },
        }),
      )
    ).data,

  deleteMessage: async (me: string, peer: string, seq: number) =>
    (
      await call(
        dm.DELETE('/users/{handle}/conversations/{peer}/messages/{seq}', {
          params: { path: { handle: me, peer, seq } },
        }),
      )
    ).data,

  deleteConversation: async (me: string, peer: string) =>
    (await call(dm.DELETE('/users/{handle}/conversations/{peer}', { params: { path: { handle: me, peer } } }))).data,
};
