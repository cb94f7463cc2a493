// shared/adapters/hbase/hbase-message-store.ts — MessageStore on HBase: conversations and each
// user's index of them, in the `messages` table. Layout, requests and why every change is a
// check-and-put on the conversation's state: shared/schema/tables.ts (messages), docs/consistency.md U.
import type { Box, ConversationState, StoredMessage } from '../../domain/messages.js';
import { bytesToString, filters, type HBaseRestClient, type HBaseRow } from '../../hbase/index.js';
import type {
  ConversationPage,
  ConversationRead,
  IndexEntry,
  IndexPage,
  MessageStore,
  SideCounts,
} from '../../ports/message-store.js';
import { conversationIndexKey, conversationKey } from '../../schema/row-keys.js';
import { qualifiedTableName } from '../../schema/tables.js';

const STATE = 's:state';
/** The families of a conversation row (all of it goes when the conversation is removed). */
const CONVERSATION_FAMILIES = ['s', 'm', 'k', 'h'];
/** A removal's tries before it gives up (each lost only to a change of the conversation that landed). */
const REMOVE_ATTEMPTS = 8;
const SEQ_DIGITS = 12;
const MAX_SEQ = 10 ** SEQ_DIGITS - 1;
const AT_DIGITS = 13;
const MAX_AT = 10 ** AT_DIGITS - 1;

/** A message's qualifier: its seq inverted, so the newest sorts first. */
const messageQualifier = (seq: number) => String(MAX_SEQ - seq).padStart(SEQ_DIGITS, '0');
const messageColumn = (seq: number) => `m:${messageQualifier(seq)}`;
const clientIdColumn = (sender: string, clientId: string) => `k:${sender}\u0000${clientId}`;
const hiddenPrefix = (reader: string) => `${reader}\u0000`;
const boxFamily = (box: Exclude<Box, 'none'>) => (box === 'main' ? 'c' : 'q');
const entryQualifier = (e: IndexEntry) =>
  `${String(MAX_AT - e.activityAt).padStart(AT_DIGITS, '0')}${e.peer}\u0000${String(e.head).padStart(SEQ_DIGITS, '0')}`;

function parseEntry(box: Exclude<Box, 'none'>, qualifier: string): IndexEntry | null {
  const sep = qualifier.indexOf('\u0000');
  if (sep < AT_DIGITS + 1) return null;
  const inverted = Number(qualifier.slice(0, AT_DIGITS));
  const head = Number(qualifier.slice(sep + 1));
  if (!Number.isSafeInteger(inverted) || !Number.isSafeInteger(head)) return null;
  return { box, peer: qualifier.slice(AT_DIGITS, sep), activityAt: MAX_AT - inverted, head };
}

const parseJson = <T>(bytes: Uint8Array | undefined): T | undefined => {
  if (!bytes) return undefined;
  try {
    return JSON.parse(bytesToString(bytes)) as T;
  } catch {
    return undefined;
  }
};

export class HBaseMessageStore implements MessageStore {
  private readonly table: string;
  constructor(
    private readonly client: HBaseRestClient,
    namespace: string,
  ) {
    this.table = qualifiedTableName(namespace, 'messages');
  }

  async conversation(
    a: string,
    b: string,
    opts: { clientId?: { sender: string; clientId: string }; seq?: number } = {},
  ): Promise<ConversationRead & { sentWithClientId?: number; message?: StoredMessage }> {
    const columns = [STATE];
    if (opts.clientId) columns.push(clientIdColumn(opts.clientId.sender, opts.clientId.clientId));
    if (opts.seq !== undefined) columns.push(messageColumn(opts.seq));
    const row = await this.client.getRow(this.table, conversationKey(a, b), { columns });
    const read = readOf(row);
    const out: ConversationRead & { sentWithClientId?: number; message?: StoredMessage } = read;
    for (const cell of row?.cells ?? []) {
      if (cell.family === 'k') out.sentWithClientId = Number(bytesToString(cell.value));
      if (cell.family === 'm') {
        const m = parseJson<StoredMessage>(cell.value);
        if (m) out.message = m;
      }
    }
    return out;
  }

  async page(a: string, b: string, reader: string, limit: number, before?: number): Promise<ConversationPage> {
    // Inverted seqs: "older than `before`" is every qualifier from inv(before − 1) up.
    const from = before === undefined ? '0'.repeat(SEQ_DIGITS) : messageQualifier(before - 1);
    const prefix = hiddenPrefix(reader);
    const row = await this.client.getRow(this.table, conversationKey(a, b), {
      columns: ['s', 'm', 'h'],
      filter: filters.or(
        filters.family('s'),
        filters.and(
          filters.family('m'),
          filters.columnRange(from, true, '9'.repeat(SEQ_DIGITS), true),
          filters.columnPagination(limit),
        ),
        // The reader's hidden marks in the same window: at most one per message of the page.
        filters.and(
          filters.family('h'),
          filters.columnRange(`${prefix}${from}`, true, `${prefix}${'9'.repeat(SEQ_DIGITS)}`, true),
          filters.columnPagination(limit),
        ),
      ),
    });
    const messages: StoredMessage[] = [];
    const hidden = new Set<number>();
    for (const cell of row?.cells ?? []) {
      if (cell.family === 'm') {
        const m = parseJson<StoredMessage>(cell.value);
        if (m) messages.push(m);
      } else if (cell.family === 'h') {
        const q = bytesToString(cell.qualifier);
        if (q.startsWith(prefix)) hidden.add(MAX_SEQ - Number(q.slice(prefix.length)));
      }
    }
    messages.sort((x, y) => y.seq - x.seq);
    return { read: readOf(row), messages, hidden };
  }

  async states(me: string, peers: string[]): Promise<Map<string, ConversationState>> {
    const out = new Map<string, ConversationState>();
    if (peers.length === 0) return out;
    const rows = await this.client.multiGet(
      this.table,
      peers.map((p) => conversationKey(me, p)),
      { columns: [STATE] },
    );
    for (const row of rows) {
      const state = readOf(row).state;
      if (!state) continue;
      out.set(state.people[0] === me ? state.people[1] : state.people[0], state);
    }
    return out;
  }

  async commit(
    next: ConversationState,
    seen: ConversationRead,
    write: { messages?: StoredMessage[]; clientId?: { sender: string; clientId: string } } = {},
  ): Promise<boolean> {
    const cells = [{ column: STATE, value: JSON.stringify(next) }];
    for (const m of write.messages ?? []) cells.push({ column: messageColumn(m.seq), value: JSON.stringify(m) });
    if (write.clientId) {
      const m = write.messages?.[0];
      if (!m) throw new TypeError('a client id is claimed by the message it sends');
      cells.push({ column: clientIdColumn(write.clientId.sender, write.clientId.clientId), value: String(m.seq) });
    }
    return this.client.checkAndPut(this.table, conversationKey(...next.people), cells, {
      column: STATE,
      value: seen.version,
    });
  }

  async hide(a: string, b: string, reader: string, seq: number): Promise<void> {
    await this.client.put(this.table, [
      {
        key: conversationKey(a, b),
        cells: [{ column: `h:${hiddenPrefix(reader)}${messageQualifier(seq)}`, value: '' }],
      },
    ]);
  }

  async list(entries: { owner: string; entry: IndexEntry }[], pair?: readonly [string, string]): Promise<void> {
    const byOwner = new Map<string, Set<string>>();
    const add = (owner: string, column: string) => byOwner.set(owner, (byOwner.get(owner) ?? new Set()).add(column));
    for (const { owner, entry } of entries) {
      add(owner, `${boxFamily(entry.box)}:${entryQualifier(entry)}`);
      add(owner, `p:${entry.peer}`);
    }
    if (pair) {
      add(pair[0], `p:${pair[1]}`);
      add(pair[1], `p:${pair[0]}`);
    }
    if (byOwner.size === 0) return;
    await this.client.put(
      this.table,
      [...byOwner].map(([owner, columns]) => ({
        key: conversationIndexKey(owner),
        cells: [...columns].map((column) => ({ column, value: '' })),
      })),
    );
  }

  async unlist(entries: { owner: string; entry: IndexEntry }[]): Promise<void> {
    const byOwner = new Map<string, string[]>();
    for (const { owner, entry } of entries) {
      const cols = byOwner.get(owner) ?? [];
      cols.push(`${boxFamily(entry.box)}:${entryQualifier(entry)}`);
      byOwner.set(owner, cols);
    }
    await Promise.all(
      [...byOwner].map(([owner, cols]) => this.client.deleteColumns(this.table, conversationIndexKey(owner), cols)),
    );
  }

  async entries(owner: string, box: Exclude<Box, 'none'>, limit: number, after?: IndexEntry): Promise<IndexPage> {
    const fam = boxFamily(box);
    const min = after ? entryQualifier(after) : '';
    const row = await this.client.getRow(this.table, conversationIndexKey(owner), {
      columns: [fam],
      filter: filters.and(
        filters.columnRange(min, after === undefined, '\u00ff'.repeat(4), true),
        filters.columnPagination(limit + 1),
      ),
    });
    const all: IndexEntry[] = [];
    for (const cell of row?.cells ?? []) {
      if (cell.family !== fam) continue;
      const e = parseEntry(box, bytesToString(cell.qualifier));
      if (e) all.push(e);
    }
    const items = all.slice(0, limit);
    return { items, ...(all.length > limit ? { next: items[items.length - 1]! } : {}) };
  }

  async count(sides: { owner: string; peer: string; version: number; counts: SideCounts }[]): Promise<void> {
    await Promise.all(
      sides.map(({ owner, peer, version, counts }) =>
        counts.unread === 0 && counts.request === 0
          ? this.client.deleteColumn(this.table, conversationIndexKey(owner), `u:${peer}`, { upToTimestamp: version })
          : this.client.put(this.table, [
              {
                key: conversationIndexKey(owner),
                cells: [{ column: `u:${peer}`, value: `${counts.unread}/${counts.request}`, timestamp: version }],
              },
            ]),
      ),
    );
  }

  async badge(owner: string): Promise<{ unread: number; requests: number }> {
    const row = await this.client.getRow(this.table, conversationIndexKey(owner), { columns: ['u'] });
    let unread = 0;
    let requests = 0;
    for (const cell of row?.cells ?? []) {
      if (cell.family !== 'u') continue;
      const [u, r] = bytesToString(cell.value).split('/').map(Number);
      if (Number.isSafeInteger(u)) unread += u!;
      if (r === 1) requests += 1;
    }
    return { unread, requests };
  }

  async peersOf(owner: string, limit: number, after?: string): Promise<string[]> {
    const row = await this.client.getRow(this.table, conversationIndexKey(owner), {
      columns: ['p'],
      filter: filters.and(
        filters.columnRange(after ?? '', after === undefined, '\u00ff'.repeat(4), true),
        filters.columnPagination(limit),
      ),
    });
    return (row?.cells ?? []).filter((c) => c.family === 'p').map((c) => bytesToString(c.qualifier));
  }

  async removeConversation(a: string, b: string): Promise<void> {
    for (let attempt = 0; attempt < REMOVE_ATTEMPTS; attempt++) {
      // The state, and every list entry of each side that names the other: the one the state
      // puts there and any a lost race or a cut left (the qualifier is <time><peer>0x00<seq>).
      const [read, ofA, ofB] = await Promise.all([
        this.conversation(a, b),
        this.entriesNaming(a, b),
        this.entriesNaming(b, a),
      ]);
      const version = read.state?.version;
      // Counts up to the version read: a count written late for an earlier change is masked too.
      // (A count cell's timestamp is its version, so a delete at the wall clock would mask the
      // counts of a conversation the two start later.)
      await Promise.all([
        this.client.deleteColumns(this.table, conversationIndexKey(a), ofA),
        this.client.deleteColumns(this.table, conversationIndexKey(b), ofB),
        ...(version === undefined
          ? []
          : [a, b].map((owner) =>
              this.client.deleteColumn(this.table, conversationIndexKey(owner), `u:${owner === a ? b : a}`, {
                upToTimestamp: version,
              }),
            )),
      ]);
      if (read.version !== null) {
        const removed = await this.client.checkAndDelete(
          this.table,
          conversationKey(a, b),
          { column: STATE, value: read.version },
          { deleteColumns: CONVERSATION_FAMILIES },
        );
        if (!removed) continue;
      }
      await Promise.all([
        this.client.deleteColumn(this.table, conversationIndexKey(a), `p:${b}`),
        this.client.deleteColumn(this.table, conversationIndexKey(b), `p:${a}`),
      ]);
      return;
    }
    throw new Error(`the conversation of ${a} and ${b} kept changing while it was removed`);
  }

  /** The columns of `owner`'s list entries (main and requests) that name `peer`. One get. */
  private async entriesNaming(owner: string, peer: string): Promise<string[]> {
    const row = await this.client.getRow(this.table, conversationIndexKey(owner), {
      columns: ['c', 'q'],
      filter: filters.and(filters.qualifierMatching(`^[0-9]{${AT_DIGITS}}${peer}\\x00`), filters.keyOnly()),
    });
    return (row?.cells ?? []).map((c) => `${c.family}:${bytesToString(c.qualifier)}`);
  }
}

function readOf(row: HBaseRow | null): ConversationRead {
  const cell = row?.cells.find((c) => c.family === 's' && bytesToString(c.qualifier) === 'state');
  if (!cell) return { state: null, version: null };
  return { state: parseJson<ConversationState>(cell.value) ?? null, version: bytesToString(cell.value) };
}
