// test/unit/table-names.test.ts — every table in shared/schema/tables.ts is named by its key, the
// name qualifiedTableName addresses it by (without reading the definitions).
import { describe, expect, it } from 'vitest';
import { TABLES, qualifiedTableName, type TableName } from '../../shared/schema/tables.js';

describe('table names', () => {
  it('names every table by its key, as qualifiedTableName addresses it', () => {
    for (const [key, table] of Object.entries(TABLES)) {
      expect(table.name, key).toBe(key);
      expect(qualifiedTableName('ns', key as TableName)).toBe(`ns:${table.name}`);
    }
  });
});
