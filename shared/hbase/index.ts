// shared/hbase/index.ts — public surface of the HBase REST client (secondary adapter; knows the protocol, nothing of the product).
export { HBaseRestClient } from './hbase-client.js';
export { HBaseError } from './hbase-error.js';
export * as filters from './filter-string.js';
export type { FilterString } from './filter-string.js';
export {
  bytesEqual,
  bytesToString,
  compareBytes,
  concatBytes,
  decodeLong,
  encodeLong,
  fromBase64,
  prefixEnd,
  toBase64,
  toBytes,
  type Bytes,
} from './codec.js';
export type {
  CellInput,
  ColumnFamilySchema,
  GetOptions,
  HBaseCell,
  HBaseClientOptions,
  HBaseRequestEvent,
  HBaseRow,
  MultiGetOptions,
  RowInput,
  ScanOptions,
  TableSchema,
} from './types.js';
