// shared/adapters/hbase/hbase-relation-store.ts — RelationStore on HBase (secondary adapter).
// Layout and access patterns: shared/schema/tables.ts (relations).
import { bytesToString, type HBaseRestClient } from '../../hbase/index.js';
import type { Edge, Page, RelationStore } from '../../ports/feed-store.js';
import { relationKey, relationPrefix, type EdgeDirection } from '../../schema/row-keys.js';
import { qualifiedTableName } from '../../schema/tables.js';
import { cellValue, edgePage } from './cells.js';

const SINCE = 'e:t';

export class HBaseRelationStore implements RelationStore {
  private readonly table: string;
  constructor(private readonly client: HBaseRestClient, namespace: string) {
    this.table = qualifiedTableName(namespace, 'relations');
  }

  async follow(follower: string, followee: string, at: number): Promise<boolean> {
    const since = String(at);
    // The 'F' row is the source of truth and its put-if-absent picks exactly one winner among
    // racing follows, so counters and backfill run once. Only the winner writes the 'R' side;
    // if it dies in between, the repair job restores 'R' from 'F' (HBase is atomic per row only).
    const created = await this.client.checkAndPut(
      this.table,
      relationKey(follower, 'F', followee),
      [{ column: SINCE, value: since }],
      { column: SINCE, value: null },
    );
    if (!created) return false;
    await this.client.put(this.table, [{ key: relationKey(followee, 'R', follower), cells: [{ column: SINCE, value: since }] }]);
    return true;
  }

  async unfollow(follower: string, followee: string): Promise<boolean> {
    const forward = relationKey(follower, 'F', followee);
    const since = cellValue(await this.client.getRow(this.table, forward, { columns: [SINCE] }), SINCE);
    if (since === undefined) return false;
    // Deleting only while e:t still holds what we read makes exactly one of several racing
    // unfollows the winner (the others see 304), so the counters move once.
    if (!(await this.client.checkAndDelete(this.table, forward, { column: SINCE, value: since }))) return false;
    // Same condition on the 'R' side: if a refollow slipped in after our delete of 'F', it has
    // rewritten 'R' with its own since, and a plain delete would drop the new edge from the
    // followers list (and from fan-out) until the repair job ran.
    await this.client.checkAndDelete(this.table, relationKey(followee, 'R', follower), { column: SINCE, value: since });
    return true;
  }

  async isFollowing(follower: string, followee: string): Promise<boolean> {
    return (await this.edge(follower, followee)) !== null;
  }

  async edge(follower: string, followee: string): Promise<Edge | null> {
    const since = await this.since(relationKey(follower, 'F', followee));
    return since === null ? null : { handle: followee, since };
  }

  followerSide(follower: string, followee: string): Promise<number | null> {
    return this.since(relationKey(followee, 'R', follower));
  }

  async restoreFollowerSide(follower: string, followee: string, since: number): Promise<void> {
    await this.client.put(this.table, [{ key: relationKey(followee, 'R', follower), cells: [{ column: SINCE, value: String(since) }] }]);
  }

  removeFollowerSide(follower: string, followee: string, since: number): Promise<boolean> {
    return this.client.checkAndDelete(this.table, relationKey(followee, 'R', follower), { column: SINCE, value: String(since) });
  }

  private async since(key: Uint8Array): Promise<number | null> {
    const value = cellValue(await this.client.getRow(this.table, key, { columns: [SINCE] }), SINCE);
    const since = value === undefined ? NaN : Number(bytesToString(value));
    return Number.isSafeInteger(since) ? since : null;
  }

  following(user: string, limit: number, cursor?: string): Promise<Page<Edge>> {
    return this.edges(user, 'F', limit, cursor);
  }

  followers(user: string, limit: number, cursor?: string): Promise<Page<Edge>> {
    return this.edges(user, 'R', limit, cursor);
  }

  /** One scan over `user`'s rows of one direction, ordered by the other user's key (salted, so not alphabetical). */
  private edges(user: string, direction: EdgeDirection, limit: number, cursor?: string): Promise<Page<Edge>> {
    return edgePage(this.client, this.table, relationPrefix(user, direction), SINCE, limit, cursor);
  }
}
