import { crc32, deflateRawSync } from 'node:zlib';

/**
 * One entry of a ZIP written by hand (APPNOTE §4.3), to say what yazl never
 * would: `claim` is the unpacked size its headers give (the truth unless
 * set), `localClaim` the one its local header gives, `descriptor` puts the
 * sizes after the data (flag bit 3).
 */
export interface RawEntry {
  name: string;
  /** What it unpacks to. */
  data?: Buffer | string;
  /** Its deflated bytes, when already made (a large part deflated once and used ten times). */
  deflated?: { bytes: Buffer; size: number; crc: number };
  stored?: boolean;
  claim?: number;
  localClaim?: number;
  descriptor?: boolean;
}

/** A ZIP of `entries`; `listed` chooses what the central directory lists (by default each entry where it is). */
export function rawZip(entries: RawEntry[], listed?: (at: { entry: RawEntry; offset: number }[]) => { entry: RawEntry; offset: number }[]): Buffer {
  const parts: Buffer[] = [];
  const written: { entry: RawEntry; offset: number; crc: number; packed: number; size: number }[] = [];
  let offset = 0;
  for (const entry of entries) {
    const data = entry.data === undefined ? undefined : Buffer.from(entry.data);
    const bytes = entry.deflated?.bytes ?? (entry.stored ? data! : deflateRawSync(data!));
    const size = entry.deflated?.size ?? data!.length;
    const crc = entry.deflated?.crc ?? crc32(data!);
    const name = Buffer.from(entry.name);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x800 | (entry.descriptor ? 8 : 0), 6);
    local.writeUInt16LE(entry.stored ? 0 : 8, 8);
    local.writeUInt16LE(0x5c21, 12);
    if (!entry.descriptor) {
      local.writeUInt32LE(crc, 14);
      local.writeUInt32LE(bytes.length, 18);
      local.writeUInt32LE(entry.localClaim ?? entry.claim ?? size, 22);
    }
    local.writeUInt16LE(name.length, 26);
    parts.push(local, name, bytes);
    if (entry.descriptor) {
      const descriptor = Buffer.alloc(16);
      descriptor.writeUInt32LE(0x08074b50, 0);
      descriptor.writeUInt32LE(crc, 4);
      descriptor.writeUInt32LE(bytes.length, 8);
      descriptor.writeUInt32LE(entry.localClaim ?? entry.claim ?? size, 12);
      parts.push(descriptor);
    }
    written.push({ entry, offset, crc, packed: bytes.length, size });
    offset += 30 + name.length + bytes.length + (entry.descriptor ? 16 : 0);
  }
  const directoryStart = offset;
  const chosen = listed ? listed(written) : written;
  for (const { entry, offset: at } of chosen) {
    const w = written.find((x) => x.entry === entry)!;
    const name = Buffer.from(entry.name);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x800 | (entry.descriptor ? 8 : 0), 8);
    central.writeUInt16LE(entry.stored ? 0 : 8, 10);
    central.writeUInt16LE(0x5c21, 14);
    central.writeUInt32LE(w.crc, 16);
    central.writeUInt32LE(w.packed, 20);
    central.writeUInt32LE(entry.claim ?? w.size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(at, 42);
    parts.push(central, name);
    offset += 46 + name.length;
  }
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(chosen.length, 8);
  end.writeUInt16LE(chosen.length, 10);
  end.writeUInt32LE(offset - directoryStart, 12);
  end.writeUInt32LE(directoryStart, 16);
  parts.push(end);
  return Buffer.concat(parts);
}

const WORD_CONTENT_TYPES =
  '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
  '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>' +
  '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>';

/** The parts of a minimal Word document, [Content_Types].xml first as Word writes it, for `rawZip`. */
export const wordDocumentEntries = (text = 'Lease'): RawEntry[] => [
  { name: '[Content_Types].xml', data: WORD_CONTENT_TYPES },
  {
    name: '_rels/.rels',
    data: '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>',
  },
  {
    name: 'word/document.xml',
    data: `<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body><w:p><w:r><w:t>${text}</w:t></w:r></w:p></w:body></w:document>`,
  },
];

/** `size` zero bytes deflated once, to be the data of many entries (a zip bomb's parts). */
export function deflatedZeros(size: number): NonNullable<RawEntry['deflated']> {
  const zeros = Buffer.alloc(size);
  return { bytes: deflateRawSync(zeros), size, crc: crc32(zeros) };
}
