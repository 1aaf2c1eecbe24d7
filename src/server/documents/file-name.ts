import { DOCUMENT_TYPES, MAX_FILE_NAME, type DocumentType } from '../../shared/domain/documents';

/** Extensions that already say the sniffed type (the first is the one added when the name has none of them). */
const EXTENSIONS: Record<DocumentType, readonly string[]> = {
  'application/pdf': ['pdf'],
  'image/jpeg': ['jpg', 'jpeg', 'jpe', 'jfif'],
  'image/png': ['png'],
  'image/heic': ['heic', 'heif'],
  'image/tiff': ['tif', 'tiff'],
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': ['docx'],
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': ['xlsx'],
  'text/csv': ['csv'],
};

/** Names Windows reserves for devices, whatever the extension (CON.pdf cannot be saved there). */
const RESERVED = /^(con|prn|aux|nul|com\d|lpt\d)(\.|$)/i;

/**
 * The name a file is shown and downloaded under, and written into the lender
 * package: the uploader's name in Unicode NFC, without control or bidi
 * formatting characters (U+202E can make "fdp.exe" read as "exe.pdf"), path
 * separators, characters Windows forbids, leading dots or runs of white
 * space; at most MAX_FILE_NAME characters; and ending in an extension of
 * the sniffed type, appended when it has another ("statement.exe" → "statement.exe.pdf").
 */
export function safeFileName(name: string, type: DocumentType): string {
  let clean = name
    .replace(/[\p{Cc}\p{Cf}\p{Cs}\p{Zl}\p{Zp}]/gu, '') // \p{Cs}: a lone surrogate
    .normalize('NFC') // after the removals, which can bring a letter and its accent together
    .replace(/[/\\<>:"|?*]/g, '_')
    .replace(/\s+/gu, ' ')
    .replace(/^[\s.]+|[\s.]+$/gu, '');
  if (RESERVED.test(clean)) clean = `_${clean}`;
  const dot = clean.lastIndexOf('.');
  const extension = dot === -1 ? '' : clean.slice(dot + 1).toLowerCase();
  const keeps = EXTENSIONS[type].includes(extension);
  const suffix = keeps ? clean.slice(dot) : `.${DOCUMENT_TYPES[type].extension}`;
  let stem = keeps ? clean.slice(0, dot) : clean;
  // Count code points, not UTF-16 units, so a character outside the BMP is never cut in half.
  const room = MAX_FILE_NAME - [...suffix].length;
  if ([...stem].length > room)
    stem = [...stem]
      .slice(0, room)
      .join('')
      .replace(/[\s.]+$/u, '');
  return `${stem || 'document'}${suffix}`;
}
