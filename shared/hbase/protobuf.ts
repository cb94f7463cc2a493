// shared/hbase/protobuf.ts — the gateway's protobuf CellSet (hbase-rest CellSetMessage.proto) to and from HBaseRow; pure, no I/O.
//
// Why a codec of our own: a scanner page of 1,000 followers in JSON is 1,000 base64 keys for the
// gateway to encode (Jackson) and for us to parse and decode; as protobuf it is length-prefixed
// raw bytes on both sides. Only the three messages the row model needs are spoken (proto2):
//   CellSet { repeated Row rows = 1; }
//   Row     { required bytes key = 1; repeated Cell values = 2; }
//   Cell    { optional bytes row = 1 (unused); optional bytes column = 2;
//             optional int64 timestamp = 3; optional bytes data = 4; }
// Fields we do not know are skipped, as protobuf readers must; malformed bytes throw.
import { columnSeparatorIndex, bytesToString, toBytes } from './codec.js';
import { requireQualifiedColumn } from './cellset.js';
import type { HBaseCell, HBaseRow, RowInput } from './types.js';

export const PROTOBUF_MEDIA_TYPE = 'application/x-protobuf';

const VARINT = 0;
const FIXED64 = 1;
const LEN = 2;
const FIXED32 = 5;

/** Reads the fields of one message in `[pos, end)` of `buf`. */
class Reader {
  constructor(
    private readonly buf: Uint8Array,
    public pos: number,
    private readonly end: number,
  ) {}

  get done(): boolean {
    return this.pos >= this.end;
  }

  /** A varint as a JS number; refuses values past 2^53 (no timestamp or length gets there). */
  varint(): number {
    let value = 0;
    let scale = 1;
    for (let i = 0; i < 10; i++) {
      if (this.pos >= this.end) throw new RangeError('protobuf: truncated varint');
      const byte = this.buf[this.pos++] as number;
      value += (byte & 0x7f) * scale;
      if (byte < 0x80) {
        if (!Number.isSafeInteger(value)) throw new RangeError('protobuf: varint beyond 2^53');
        return value;
      }
      scale *= 128;
    }
    throw new RangeError('protobuf: varint longer than 10 bytes');
  }

  /** A length-delimited field's bounds, checked against the enclosing message. */
  span(): [number, number] {
    const length = this.varint();
    const start = this.pos;
    const stop = start + length;
    if (stop > this.end) throw new RangeError('protobuf: field runs past its message');
    this.pos = stop;
    return [start, stop];
  }

  bytes(): Uint8Array {
    const [start, stop] = this.span();
    return this.buf.subarray(start, stop);
  }

  skip(wireType: number): void {
    if (wireType === VARINT) this.varint();
    else if (wireType === LEN) this.span();
    else if (wireType === FIXED64 || wireType === FIXED32) {
      this.pos += wireType === FIXED64 ? 8 : 4;
      if (this.pos > this.end) throw new RangeError('protobuf: truncated fixed field');
    } else throw new RangeError(`protobuf: unsupported wire type ${wireType}`);
  }
}

/** The rows of a CellSet message, as parseCellSet gives them for JSON. Keys and values are views into `buf`. */
export function decodeCellSet(buf: Uint8Array): HBaseRow[] {
  const rows: HBaseRow[] = [];
  const r = new Reader(buf, 0, buf.byteLength);
  while (!r.done) {
    const tag = r.varint();
    if (tag === ((1 << 3) | LEN)) {
      const [start, stop] = r.span();
      rows.push(decodeRow(buf, start, stop));
    } else r.skip(tag & 7);
  }
  return rows;
}

function decodeRow(buf: Uint8Array, start: number, stop: number): HBaseRow {
  const r = new Reader(buf, start, stop);
  let key: Uint8Array | undefined;
  const cells: HBaseCell[] = [];
  while (!r.done) {
    const tag = r.varint();
    if (tag === ((1 << 3) | LEN)) key = r.bytes();
    else if (tag === ((2 << 3) | LEN)) {
      const [s, e] = r.span();
      cells.push(decodeCell(buf, s, e));
    } else r.skip(tag & 7);
  }
  if (key === undefined) throw new TypeError('CellSet row without key');
  return { key, cells };
}

const EMPTY: Uint8Array = new Uint8Array(0);

function decodeCell(buf: Uint8Array, start: number, stop: number): HBaseCell {
  const r = new Reader(buf, start, stop);
  let column: Uint8Array | undefined;
  let timestamp = 0;
  let value = EMPTY;
  while (!r.done) {
    const tag = r.varint();
    if (tag === ((2 << 3) | LEN)) column = r.bytes();
    else if (tag === ((3 << 3) | VARINT)) timestamp = r.varint();
    else if (tag === ((4 << 3) | LEN)) value = r.bytes();
    else r.skip(tag & 7);
  }
  if (column === undefined) throw new TypeError('CellSet cell without column');
  const sep = columnSeparatorIndex(column);
  return {
    column,
    family: bytesToString(sep === -1 ? column : column.subarray(0, sep)),
    qualifier: sep === -1 ? EMPTY : column.subarray(sep + 1),
    timestamp,
    value,
  };
}

// ---------------------------------------------------------------- encoding (batch puts)

function varintSize(n: number): number {
  let size = 1;
  while (n >= 0x80) {
    n = Math.floor(n / 128);
    size++;
  }
  return size;
}

/** Field tag + length prefix + payload of a length-delimited field. */
const lenFieldSize = (length: number) => 1 + varintSize(length) + length;

interface CellPlan {
  column: Uint8Array;
  value: Uint8Array;
  timestamp: number | undefined;
  size: number;
}

interface RowPlan {
  key: Uint8Array;
  cells: CellPlan[];
  size: number;
}

/**
 * A CellSet message for a batch put, with the same checks cellSetJson makes (the server would
 * 400 on a bare family; an empty key or a row without cells is a caller's mistake). A cell
 * without a timestamp leaves the field out: the region server stamps it (LATEST_TIMESTAMP).
 */
export function encodeCellSet(rows: RowInput[]): Uint8Array {
  let total = 0;
  const plans: RowPlan[] = rows.map((row) => {
    const key = toBytes(row.key);
    if (key.byteLength === 0) throw new TypeError('HBase row keys cannot be empty');
    if (row.cells.length === 0) throw new TypeError('a row to put needs at least one cell');
    let size = lenFieldSize(key.byteLength);
    const cells = row.cells.map((c) => {
      const column = requireQualifiedColumn(toBytes(c.column));
      const value = toBytes(c.value);
      if (c.timestamp !== undefined && (!Number.isSafeInteger(c.timestamp) || c.timestamp < 0)) {
        throw new RangeError(`invalid HBase timestamp: ${c.timestamp}`);
      }
      const cellSize =
        lenFieldSize(column.byteLength) +
        lenFieldSize(value.byteLength) +
        (c.timestamp === undefined ? 0 : 1 + varintSize(c.timestamp));
      size += lenFieldSize(cellSize);
      return { column, value, timestamp: c.timestamp, size: cellSize };
    });
    total += lenFieldSize(size);
    return { key, cells, size };
  });
  const out = new Uint8Array(total);
  let pos = 0;
  const writeVarint = (n: number) => {
    while (n >= 0x80) {
      out[pos++] = (n % 128) | 0x80;
      n = Math.floor(n / 128);
    }
    out[pos++] = n;
  };
  const writeHeader = (field: number, length: number) => {
    out[pos++] = (field << 3) | LEN;
    writeVarint(length);
  };
  const writeBytes = (field: number, b: Uint8Array) => {
    writeHeader(field, b.byteLength);
    out.set(b, pos);
    pos += b.byteLength;
  };
  for (const row of plans) {
    writeHeader(1, row.size);
    writeBytes(1, row.key);
    for (const cell of row.cells) {
      writeHeader(2, cell.size);
      writeBytes(2, cell.column);
      if (cell.timestamp !== undefined) {
        out[pos++] = (3 << 3) | VARINT;
        writeVarint(cell.timestamp);
      }
      writeBytes(4, cell.value);
    }
  }
  if (pos !== total) throw new Error(`protobuf: encoded ${pos} bytes, planned ${total}`);
  return out;
}
