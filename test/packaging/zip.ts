// test/packaging/zip.ts — reads a zip's central directory: enough to list a package and extract
// its files, without a zip dependency.
import { readFileSync } from 'node:fs';
import { inflateRawSync } from 'node:zlib';

/** The entries of a zip, by name, each read on demand. */
export function zipEntries(file: string): Map<string, () => Buffer> {
  const zip = readFileSync(file);
  const eocd = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  const count = zip.readUInt16LE(eocd + 10);
  const entries = new Map<string, () => Buffer>();
  for (let i = 0, at = zip.readUInt32LE(eocd + 16); i < count; i++) {
    const method = zip.readUInt16LE(at + 10);
    const size = zip.readUInt32LE(at + 20);
    const nameLength = zip.readUInt16LE(at + 28);
    const local = zip.readUInt32LE(at + 42);
    const name = zip.toString('utf8', at + 46, at + 46 + nameLength);
    at += 46 + nameLength + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
    entries.set(name, () => {
      const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
      const raw = zip.subarray(start, start + size);
      return method === 8 ? inflateRawSync(raw) : Buffer.from(raw);
    });
  }
  return entries;
}
