/**
 * Names inside the lender package (decision 015): readable UTF-8 that every
 * unzip program extracts as one plain file in its folder. A name is NFC (one
 * spelling of "José" whatever the browser sent), has no path separator,
 * control character, character Windows refuses in a file name, or invisible
 * formatting that could disguise it (a right-to-left override turning
 * "invoice‮fdp.exe" into "invoiceexe.pdf" on screen), is not a Windows
 * device name, and is at most a bounded number of UTF-8 bytes with its
 * extension kept. Two names in one folder never differ only by case, so they
 * stay apart on case-insensitive disks too.
 */

/** Path separators and the other characters Windows refuses in a file name. */
const RESERVED_CHARACTERS = /[\\/:*?"<>|]/g;
/** C0 controls, DEL and C1 controls. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROLS = /[\u0000-\u001f\u007f-\u009f]/g;
/** Bidirectional overrides, embeddings, isolates and marks; zero-width characters; the byte-order mark. */
const INVISIBLE = /[\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufeff]/g;
/** Device names Windows will not create as files, with or without an extension. */
const DEVICE_NAME = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³])(\.|$)/i;

/** Folder names (after their number) and file names are kept to these many UTF-8 bytes. */
export const MAX_FOLDER_BYTES = 80;
export const MAX_FILE_BYTES = 120;

const bytes = (text: string) => Buffer.byteLength(text, 'utf8');

/** "statement.final.pdf" → ["statement.final", ".pdf"]; an extension is short and has no spaces. */
function splitExtension(name: string): [string, string] {
  const dot = name.lastIndexOf('.');
  if (dot <= 0) return [name, ''];
  const extension = name.slice(dot);
  return /^\.[^\s.]{1,10}$/u.test(extension) ? [name.slice(0, dot), extension] : [name, ''];
}

/** Shortens `stem` (by whole characters) until `stem + extension` fits in `maxBytes`. */
function fit(stem: string, extension: string, maxBytes: number): string {
  const characters = Array.from(stem);
  while (characters.length > 1 && bytes(characters.join('') + extension) > maxBytes) characters.pop();
  return `${characters.join('').trimEnd()}${extension}`.normalize('NFC');
}

/** One path segment: what a person called a file or an item, made safe to extract anywhere. */
export function safeSegment(raw: string, { fallback, maxBytes }: { fallback: string; maxBytes: number }): string {
  let name = raw
    .normalize('NFC')
    .replace(INVISIBLE, '')
    .replace(CONTROLS, ' ')
    .replace(RESERVED_CHARACTERS, '_')
    .replace(/\s+/gu, ' ')
    .trim()
    // A leading dot hides a file on Unix; Windows drops trailing dots and spaces.
    .replace(/^[.\s]+/u, '')
    .replace(/[.\s]+$/u, '');
  if (name === '') name = fallback;
  if (DEVICE_NAME.test(name)) name = `_${name}`;
  const [stem, extension] = splitExtension(name);
  return fit(stem, extension, maxBytes);
}

/**
 * Names for the files of one folder: each made safe, and a name already
 * given in the folder (ignoring case) gets " (2)", " (3)"… before its
 * extension.
 */
export function folderNames(maxBytes = MAX_FILE_BYTES) {
  const taken = new Set<string>();
  const key = (name: string) => name.toLocaleLowerCase('en-US');
  return (raw: string, fallback = 'document'): string => {
    const name = safeSegment(raw, { fallback, maxBytes });
    if (!taken.has(key(name))) {
      taken.add(key(name));
      return name;
    }
    const [stem, extension] = splitExtension(name);
    for (let n = 2; ; n++) {
      const suffix = ` (${n})${extension}`;
      const candidate = `${fit(stem, suffix, maxBytes)}`;
      if (!taken.has(key(candidate))) {
        taken.add(key(candidate));
        return candidate;
      }
    }
  };
}

/** "03 Bank statements": the item's place among the package's folders, then its label. */
export function itemFolderName(place: number, count: number, label: string): string {
  const width = Math.max(2, String(count).length);
  return `${String(place).padStart(width, '0')} ${safeSegment(label, { fallback: 'Item', maxBytes: MAX_FOLDER_BYTES })}`;
}

/** "Dana Borrower - 1200 Barton Springs Rd - lender package.zip". */
export function packageFileName(borrowerName: string, street: string): string {
  const part = (text: string, fallback: string) => safeSegment(text, { fallback, maxBytes: 60 });
  return `${part(borrowerName, 'Borrower')} - ${part(street, 'Property')} - lender package.zip`;
}
