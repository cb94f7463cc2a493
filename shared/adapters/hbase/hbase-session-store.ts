// shared/adapters/hbase/hbase-session-store.ts — SessionStore on HBase (secondary adapter): one
// row per session. Layout, requests and interleavings: shared/schema/tables.ts (sessions).
import type { HBaseRestClient } from '../../hbase/index.js';
import type { IssuedToken, SessionOwner, SessionStore, SessionView } from '../../ports/session-store.js';
import { sessionKey } from '../../schema/row-keys.js';
import { qualifiedTableName } from '../../schema/tables.js';
import { cellText as text } from './cells.js';

const HANDLE = 's:h';
/** The account's session epoch the session started under (absent: '', the first). */
const EPOCH = 's:e';
const CURRENT = 's:c';
const REVOKED_AT = 's:r';
/** The value of s:c in a revoked session: never a hex hash, so no rotation can check against it. */
const NO_CURRENT = '-';
const tokenColumn = (hash: string) => `t:${hash}`;

export class HBaseSessionStore implements SessionStore {
  private readonly table: string;
  constructor(
    private readonly client: HBaseRestClient,
    namespace: string,
  ) {
    this.table = qualifiedTableName(namespace, 'sessions');
  }

  async start(id: Uint8Array, owner: SessionOwner, token: IssuedToken): Promise<void> {
    await this.client.put(this.table, [{ key: sessionKey(id), cells: this.currentCells(owner, token) }]);
  }

  async read(id: Uint8Array, presented: string): Promise<SessionView | null> {
    const row = await this.client.getRow(this.table, sessionKey(id), { columns: ['s', tokenColumn(presented)] });
    const handle = text(row, HANDLE);
    if (handle === undefined) return null;
    const current = text(row, CURRENT);
    const expires = text(row, tokenColumn(presented));
    return {
      handle,
      epoch: text(row, EPOCH) ?? '',
      revoked: text(row, REVOKED_AT) !== undefined,
      currentHash: current === undefined || current === NO_CURRENT ? null : current,
      presentedExpiresAt: expires === undefined ? null : Number(expires),
    };
  }

  async rotate(id: Uint8Array, owner: SessionOwner, from: string, next: IssuedToken): Promise<boolean> {
    // One atomic row mutation: the successor becomes current only if `from` still is. A revoke
    // writes s:c too, so it is ordered against every rotation by this same check.
    return this.client.checkAndPut(this.table, sessionKey(id), this.currentCells(owner, next), {
      column: CURRENT,
      value: from,
    });
  }

  async revoke(id: Uint8Array, now: number): Promise<void> {
    await this.client.put(this.table, [
      {
        key: sessionKey(id),
        cells: [
          { column: CURRENT, value: NO_CURRENT },
          { column: REVOKED_AT, value: String(now) },
        ],
      },
    ]);
  }

  /** Handle and epoch are rewritten by every rotation, so the TTL never drops them from a live session. */
  private currentCells(owner: SessionOwner, token: IssuedToken) {
    return [
      { column: HANDLE, value: owner.handle },
      { column: EPOCH, value: owner.epoch },
      { column: CURRENT, value: token.hash },
      { column: tokenColumn(token.hash), value: String(token.expiresAt) },
    ];
  }
}
