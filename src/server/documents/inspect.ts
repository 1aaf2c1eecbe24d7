import { fileTypeFromBuffer, type FileTypeResult } from 'file-type';
import { DOCUMENT_TYPES, type DocumentType } from '../../shared/domain/documents';
import { AppError } from '../../shared/errors';
import { BoxScan, CsvScan, JpegScan, TiffScan, TokenScan, encryptScan } from './content-scan';
import { ZipContentScan, type ZipLocalEntry } from './zip-contents';
import { findEndRecord, readZipDirectory, type ZipEntry } from './zip-directory';

export { safeFileName } from './file-name';

/**
 * What an uploaded file is, decided from its bytes as they stream past (never
 * from its name or declared type), and whether it is whole and only itself.
 * The inspector keeps the first HEAD_BYTES (file-type reads them), the last
 * few bytes (where a file's end shows whether it was cut off or had something
 * appended), and the small state of the scans below; its memory does not grow
 * with the file. `update` sees every chunk in order and never throws; `finish`
 * answers the type or throws a 4xx AppError whose message says what to do.
 */
export interface Inspector {
  /** A promise while a DOCX or XLSX part is being unpacked (zip-contents.ts): wait for it before the next chunk. */
  update(chunk: Buffer): void | Promise<void>;
  finish(): Promise<DocumentType>;
  /** Bytes the inspector holds on to (tests check that it stays bounded). */
  readonly retainedBytes: number;
}

/** Enough for file-type to read a DOCX or XLSX's [Content_Types].xml, which Word, Excel and LibreOffice write first. */
const HEAD_BYTES = 64 * 1024;
/** A ZIP end record with the longest comment it may have (22 + 65,535 bytes): an appended ZIP shows there. */
const TAIL_BYTES = 22 + 0xffff;
/** A DOCX or XLSX's central directory must fit in its last megabyte. */
const ZIP_TAIL_BYTES = 1024 * 1024;
/** A DOCX or XLSX may unpack to this much, or 100 times its size if that is more, and never beyond 1 GiB. */
const ZIP_EXPANSION_FLOOR = 16 * 1024 * 1024;
const ZIP_EXPANSION_CAP = 1024 * 1024 * 1024;
/** How much a ZIP package of `size` bytes may unpack to. */
export const zipExpansionLimit = (size: number) => Math.min(ZIP_EXPANSION_CAP, Math.max(100 * size, ZIP_EXPANSION_FLOOR));
const megabytes = (bytes: number) => `${Math.round(bytes / 2 ** 20)} MB`;
const sizeText = (bytes: number) => (bytes < 2 ** 20 ? `${Math.ceil(bytes / 1024)} KB` : megabytes(bytes));
/** Acrobat looks for %%EOF in the last 1,024 bytes, so white space up to that much after it is tolerated. */
const PDF_TRAILING_SLACK = 1024;

const ALLOWED = 'upload PDF, JPEG, PNG, HEIC, TIFF, DOCX, XLSX or CSV files';
const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
/** The PNG file ends with its IEND chunk: length 0, type, CRC (PNG spec §5.6, §11.2.5). */
const PNG_END = Buffer.from('0000000049454e44ae426082', 'hex');
const PNG_SIGNATURE = Buffer.from('89504e470d0a1a0a', 'hex');
const EMPTY = Buffer.alloc(0);

/** How the refusals name what a file is when it is not one of ours (file-type's extension otherwise). */
const KNOWN_OTHERS: Record<string, string> = {
  zip: 'a ZIP archive',
  exe: 'a Windows program',
  elf: 'a program',
  gif: 'a GIF image',
  webp: 'a WebP image',
  bmp: 'a BMP image',
  avif: 'an AVIF image',
  xml: 'an XML file',
  rtf: 'an RTF document',
  docm: 'a macro-enabled Word document (DOCM)',
  xlsm: 'a macro-enabled Excel workbook (XLSM)',
  pptx: 'a PowerPoint presentation',
  cfb: 'an old-format (.doc, .xls) or password-protected Office file',
  cr2: 'a camera RAW photo',
  nef: 'a camera RAW photo',
  arw: 'a camera RAW photo',
  dng: 'a camera RAW photo',
  mp4: 'a video',
  mov: 'a video',
};
const nameOf = (found: FileTypeResult) => KNOWN_OTHERS[found.ext] ?? `a .${found.ext} file`;

const refuse = (code: 'unsupported_file_type' | 'damaged_file' | 'unsafe_file' | 'password_protected_pdf', message: string) => new AppError(code, message);
const notOurs = (what: string) => refuse('unsupported_file_type', `This file is ${what}; ${ALLOWED}`);

/** The last `capacity` bytes of a stream, in a fixed buffer written round. */
class Tail {
  private readonly bytes: Buffer;
  private written = 0;
  constructor(readonly capacity: number) {
    this.bytes = Buffer.alloc(capacity);
  }
  update(chunk: Buffer): void {
    const part = chunk.subarray(Math.max(0, chunk.length - this.capacity));
    const at = (this.written + chunk.length - part.length) % this.capacity;
    const first = part.copy(this.bytes, at);
    part.copy(this.bytes, 0, first);
    this.written += chunk.length;
  }
  contents(): Buffer {
    if (this.written <= this.capacity) return this.bytes.subarray(0, this.written);
    const at = this.written % this.capacity;
    return Buffer.concat([this.bytes.subarray(at), this.bytes.subarray(0, at)]);
  }
}

/** The family a file's first bytes promise, which chooses the scans to run while it streams (file-type confirms it at the end). */
function familyOf(start: Buffer): 'pdf' | 'jpeg' | 'png' | 'heic' | 'tiff' | 'zip' | 'other' {
  if (start.toString('latin1', 0, 5) === '%PDF-') return 'pdf';
  if (start[0] === 0xff && start[1] === 0xd8 && start[2] === 0xff) return 'jpeg';
  if (start.subarray(0, 8).equals(PNG_SIGNATURE)) return 'png';
  if (start.toString('latin1', 4, 8) === 'ftyp') return 'heic';
  if (start.readUInt32BE(0) === 0x504b0304) return 'zip';
  if (start.readUInt32BE(0) === 0x49492a00 || start.readUInt32BE(0) === 0x4d4d002a) return 'tiff';
  return 'other';
}

/**
 * `size`, when known before the bytes come (the upload's announced size),
 * lets a ZIP package's unpacking stop as soon as it passes what a file of
 * that size may unpack to; otherwise it stops at 1 GiB, and `finish` holds
 * the file to its real size's limit.
 */
export function createInspector(options: { size?: number } = {}): Inspector {
  const head = Buffer.alloc(HEAD_BYTES);
  let size = 0;
  let scans: { update(chunk: Buffer): void; retainedBytes?: number }[] | null = null;
  let family: ReturnType<typeof familyOf> = 'other';
  let tail = new Tail(TAIL_BYTES);
  const eof = new TokenScan(Buffer.from('%%EOF'));
  const encrypt = encryptScan();
  const jpeg = new JpegScan();
  let tiff: TiffScan | null = null;
  const boxes = new BoxScan();
  const csv = new CsvScan();
  let zipContents: ZipContentScan | null = null;

  /**
   * Chooses the scans once `known` first bytes are in `head`, and gives them
   * the `seen` bytes that came before (all still in `head`, as `seen` < 16).
   */
  const start = (seen: number, known: number) => {
    family = known >= 8 ? familyOf(head) : 'other';
    if (family === 'zip') {
      tail = new Tail(ZIP_TAIL_BYTES);
      zipContents = new ZipContentScan(options.size === undefined ? ZIP_EXPANSION_CAP : zipExpansionLimit(options.size));
    }
    if (family === 'tiff') tiff = new TiffScan(head);
    const byFamily = { pdf: [eof, encrypt], jpeg: [jpeg], png: [], heic: [boxes], tiff: tiff ? [tiff] : [], zip: [], other: [csv] };
    const chosen = [tail, ...byFamily[family]];
    for (const scan of chosen) scan.update(head.subarray(0, seen));
    return chosen;
  };

  let zipStarted = false;
  /** The ZIP walk sees the same bytes (the first `seen` ones from `head`, as above); it may answer a promise. */
  const walkZip = (chunk: Buffer, seen: number) => {
    if (!zipContents) return;
    if (zipStarted) return zipContents.update(chunk);
    zipStarted = true;
    return zipContents.update(seen > 0 ? Buffer.concat([head.subarray(0, seen), chunk]) : chunk);
  };

  return {
    update(chunk) {
      if (size < HEAD_BYTES) chunk.copy(head, size, 0, Math.min(chunk.length, HEAD_BYTES - size));
      const seen = scans ? 0 : size;
      scans ??= size + chunk.length >= 16 ? start(size, size + chunk.length) : null;
      size += chunk.length;
      if (!scans) return;
      for (const scan of scans) scan.update(chunk);
      return walkZip(chunk, seen);
    },

    async finish() {
      if (size === 0) throw new AppError('empty_file', 'This file is empty');
      if (!scans) {
        scans = start(size, size);
        await walkZip(EMPTY, size);
      }
      csv.finish();
      const sample = tiff ? tiff.standIn(head) : head.subarray(0, Math.min(size, HEAD_BYTES));
      const found = await fileTypeFromBuffer(sample).catch(() => undefined);
      // Text that passes the CSV rule is a CSV even when file-type sees a two-letter signature in it ("MZ", "BM").
      const type = !found || (family === 'other' && !csv.binary && !csv.problem) ? checkText() : await checkKnown(found);
      const end = tail.contents();
      // Polyglots: PDF readers find a header in the first 1,024 bytes, ZIP readers an end record at the end.
      if (type !== 'application/pdf' && head.subarray(0, 1024).includes('%PDF-')) {
        throw refuse('unsafe_file', `This ${DOCUMENT_TYPES[type].label} also holds a PDF; save it again and upload that`);
      }
      if (family !== 'zip' && findEndRecord(end) !== -1) {
        throw refuse('unsafe_file', `This ${DOCUMENT_TYPES[type].label} also holds a ZIP archive; save it again and upload that`);
      }
      return type;
    },

    get retainedBytes() {
      return (
        head.length +
        tail.capacity +
        eof.retainedBytes +
        encrypt.retainedBytes +
        jpeg.trailerStart.length +
        (tiff?.retainedBytes ?? 0) +
        csv.retainedBytes +
        (zipContents?.retainedBytes ?? 0) +
        16
      );
    },
  };

  async function checkKnown(found: FileTypeResult): Promise<DocumentType> {
    const end = tail.contents();
    switch (found.mime) {
      case 'application/pdf':
        if (family !== 'pdf') throw refuse('damaged_file', 'This PDF is damaged (its header is not valid); save it again and upload that');
        // PDF 32000-1 §7.5.5: the trailer ends in %%EOF; §7.6.1: an encrypted file's trailer (or cross-reference stream) has
        // /Encrypt. That includes files locked only by an owner password, which open without one: telling those apart would
        // take the security handler's password check (§7.6.3.4), so they are refused too, with a way out in the message.
        if (encrypt.count > 0)
          throw refuse(
            'password_protected_pdf',
            'This PDF is password-protected or locked against changes; remove the password (or print it to a new PDF) and upload it again',
          );
        if (eof.lastEnd === -1) throw refuse('damaged_file', 'This PDF is cut off (it has no end); upload the whole file again');
        if (size - eof.lastEnd > PDF_TRAILING_SLACK || !/^[\0\t\n\f\r ]*$/.test(end.subarray(end.length - (size - eof.lastEnd)).toString('latin1'))) {
          throw refuse('unsafe_file', 'This PDF has other data after its end (it may be cut off or hide another file); save it again as a PDF and upload that');
        }
        return 'application/pdf';
      case 'image/png':
        if (end.subarray(end.length - PNG_END.length).equals(PNG_END)) return 'image/png';
        if (end.includes(PNG_END))
          throw refuse('unsafe_file', 'This PNG image has other data after its end (it may hide another file); save it again and upload that');
        throw refuse('damaged_file', 'This PNG image is cut off; upload the whole file again');
      case 'image/jpeg':
        return checkJpeg(end);
      case 'image/heic':
      case 'image/heif':
      case 'image/heic-sequence':
      case 'image/heif-sequence':
        return checkHeic(found);
      case 'image/tiff':
        return 'image/tiff';
      case DOCX:
      case XLSX:
      case 'application/zip':
        return await checkOfficeFile(found);
      default:
        throw notOurs(nameOf(found));
    }
  }

  /**
   * A JPEG ends at its EOI marker, followed by nothing but zero padding, except
   * what phone cameras append: a second JPEG (CIPA DC-007 multi-picture
   * format, Ultra HDR gain maps), a motion photo's MP4, a Samsung trailer.
   */
  function checkJpeg(end: Buffer): DocumentType {
    if (jpeg.broken || jpeg.end === -1) throw refuse('damaged_file', 'This JPEG image is cut off or damaged; upload the whole file again');
    const after = jpeg.trailerStart;
    const phoneTrailer =
      (after[0] === 0xff && after[1] === 0xd8) || after.toString('latin1', 4, 8) === 'ftyp' || end.toString('latin1', end.length - 6) === '\0\0SEFT';
    if (jpeg.trailerHasData && !phoneTrailer) {
      throw refuse('unsafe_file', 'This JPEG image has other data after its end (it may hide another file); save it again and upload that');
    }
    return 'image/jpeg';
  }

  /** HEIC is HEVC in HEIF (ISO/IEC 23008-12): the `heic`/`heix` brands, also as compatible brands after `mif1`, as Samsung phones write. */
  function checkHeic(found: FileTypeResult): DocumentType {
    const ftypSize = Math.min(head.readUInt32BE(0), size, HEAD_BYTES);
    const brands = new Set<string>();
    for (let at = 8; at + 4 <= ftypSize; at += 4) if (at !== 12) brands.add(head.toString('latin1', at, at + 4));
    if (found.mime.endsWith('sequence')) throw notOurs('a HEIF image sequence');
    if (!brands.has('heic') && !brands.has('heix')) throw notOurs('a HEIF image that is not a HEIC photo');
    if (!boxes.complete) throw refuse('damaged_file', 'This HEIC photo is cut off or damaged; upload the whole file again');
    return 'image/heic';
  }

  /**
   * DOCX and XLSX are ZIP packages (ISO/IEC 29500-2 OPC). Their central
   * directory says what is in them, but how large they unpack is measured by
   * unpacking them (zip-contents.ts), and the directory must name exactly
   * the entries that walk found, with their real sizes: a reader follows the
   * directory, so a directory that lies about a size or points elsewhere
   * would let it unpack what was never measured.
   */
  async function checkOfficeFile(found: FileTypeResult): Promise<DocumentType> {
    const directory = readZipDirectory(tail.contents(), size);
    const names = directory.ok ? new Set(directory.entries.map((e) => e.name)) : new Set<string>();
    const part = (folder: string) => names.has('[Content_Types].xml') && [...names].some((name) => name.startsWith(folder));
    // file-type reads [Content_Types].xml when it is in the head; a package that writes it last is told by its parts' folders.
    const type = found.mime === DOCX || found.mime === XLSX ? found.mime : part('word/') ? DOCX : part('xl/') ? XLSX : null;
    if (!type) throw notOurs(nameOf(found));
    const label = DOCUMENT_TYPES[type].label;
    if (!directory.ok) {
      if (directory.problem === 'too_large') throw refuse('unsafe_file', `This ${label} has too many parts to check; save it again and upload that`);
      throw refuse('damaged_file', `This ${label} is cut off or damaged; upload the whole file again`);
    }
    if (!part(type === DOCX ? 'word/' : 'xl/')) throw refuse('damaged_file', `This ${label} is damaged: its parts don't match its type`);
    if ([...names].some((name) => name.toLowerCase().endsWith('vbaproject.bin'))) throw notOurs(type === DOCX ? KNOWN_OTHERS.docm! : KNOWN_OTHERS.xlsm!);
    if (directory.entries.some((e) => e.encrypted)) throw refuse('damaged_file', `This ${label} is encrypted; remove the password and upload it again`);
    const limit = zipExpansionLimit(size);
    if (directory.uncompressedTotal > limit) {
      throw refuse(
        'unsafe_file',
        `This ${label} claims to unpack to ${megabytes(directory.uncompressedTotal)}, far more than a real one; it may be a zip bomb`,
      );
    }
    const contents = await zipContents!.result();
    if (!contents.ok && contents.problem === 'too_large') {
      throw refuse(
        'unsafe_file',
        `This ${label} unpacks to more than ${megabytes(limit)} (Coverly stopped unpacking it there), far more than a real one of ${sizeText(size)}; it may be a zip bomb`,
      );
    }
    if (!contents.ok && contents.problem === 'misdescribed') {
      throw refuse(
        'unsafe_file',
        `This ${label}'s parts are not what their headers say (${contents.why}); it may be a zip bomb. Save it again and upload that`,
      );
    }
    if (!contents.ok && contents.problem === 'encrypted') throw refuse('damaged_file', `This ${label} is encrypted; remove the password and upload it again`);
    if (!contents.ok) throw refuse('damaged_file', `This ${label} is damaged (${contents.why}); save it again and upload that`);
    if (contents.unpacked > limit) {
      throw refuse(
        'unsafe_file',
        `This ${label} unpacks to ${megabytes(contents.unpacked)}, far more than a real one of ${sizeText(size)}; it may be a zip bomb`,
      );
    }
    const mismatch = directoryMismatch(directory.entries, contents.entries);
    if (!mismatch && contents.directoryOffset !== directory.directoryOffset)
      throw refuse('damaged_file', `This ${label} is cut off or damaged; upload the whole file again`);
    if (mismatch)
      throw refuse(
        'unsafe_file',
        `This ${label}'s table of contents does not match its parts (${mismatch}); it may be a zip bomb. Save it again and upload that`,
      );
    return type;
  }

  /** Nothing file-type knows: CSV if it passes the CSV rule, and never markup a browser might run. */
  function checkText(): DocumentType {
    if (csv.binary || family !== 'other') throw refuse('unsupported_file_type', `This file's type isn't recognised; ${ALLOWED}`);
    if (/^(\uFEFF)?\s*</.test(head.toString('utf8', 0, Math.min(size, 1024)))) throw notOurs('HTML or XML text');
    if (csv.problem) throw notOurs(`text but not CSV (${csv.problem})`);
    return 'text/csv';
  }
}

/**
 * How the central directory differs from the entries as walked, or null:
 * the same number of entries, each at a local header the walk found (each
 * once), with the same name and sizes.
 */
function directoryMismatch(listed: ZipEntry[], walked: ZipLocalEntry[]): string | null {
  if (listed.length !== walked.length) return `it lists ${listed.length} parts where the file holds ${walked.length}`;
  const byOffset = new Map(walked.map((entry) => [entry.offset, entry]));
  for (const entry of listed) {
    const real = byOffset.get(entry.localOffset);
    if (!real) return `${entry.name} points where no part starts, or where another points`;
    byOffset.delete(entry.localOffset);
    if (real.name !== entry.name) return `it names ${entry.name} where the part is ${real.name}`;
    if (real.uncompressedSize !== entry.uncompressedSize)
      return `it says ${entry.name} unpacks to ${entry.uncompressedSize} bytes, but it unpacks to ${real.uncompressedSize}`;
    if (real.compressedSize !== entry.compressedSize) return `it says ${entry.name} takes ${entry.compressedSize} bytes, but it takes ${real.compressedSize}`;
  }
  return null;
}
