/**
 * Uploaded documents: what a version's review can be, which file types are
 * accepted (decided from the content, never the name), and the limits.
 */

/** A version's own review: waiting, opened for review, approved, or sent back with a reason. */
export const VERSION_REVIEWS = ['pending', 'in_review', 'approved', 'needs_revision'] as const;
export type VersionReview = (typeof VERSION_REVIEWS)[number];

/** In which capacity someone uploaded a version. */
export const UPLOADER_KINDS = ['team', 'borrower', 'third_party'] as const;
export type UploaderKind = (typeof UPLOADER_KINDS)[number];

/** The file types a document may be, by the MIME type the content was sniffed as. */
export const DOCUMENT_TYPES = {
  'application/pdf': { label: 'PDF', extension: 'pdf' },
  'image/jpeg': { label: 'JPEG image', extension: 'jpg' },
  'image/png': { label: 'PNG image', extension: 'png' },
  'image/heic': { label: 'HEIC photo', extension: 'heic' },
  'image/tiff': { label: 'TIFF image', extension: 'tif' },
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': { label: 'Word document', extension: 'docx' },
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': { label: 'Excel workbook', extension: 'xlsx' },
  'text/csv': { label: 'CSV', extension: 'csv' },
} as const;
export type DocumentType = keyof typeof DOCUMENT_TYPES;
export const isDocumentType = (value: string): value is DocumentType => Object.hasOwn(DOCUMENT_TYPES, value);

/** What the page says it accepts (a file picker's `accept`); the server decides by content regardless. */
export const DOCUMENT_ACCEPT = '.pdf,.jpg,.jpeg,.png,.heic,.heif,.tif,.tiff,.docx,.xlsx,.csv,application/pdf,image/*';

/** Types the browser shows as they are; HEIC and TIFF get a JPEG preview made in the background. */
export const INLINE_PREVIEW_TYPES: readonly DocumentType[] = ['application/pdf', 'image/jpeg', 'image/png'];
export const CONVERTED_PREVIEW_TYPES: readonly DocumentType[] = ['image/heic', 'image/tiff'];

/**
 * Why a HEIC or TIFF file has no JPEG preview, so the page offers the
 * download instead of waiting: too big to decode safely (pixels or bytes),
 * unreadable (the decoder refused its content on every try), or failed (its
 * last try failed for another reason; an admin may run the dead job again).
 */
export const PREVIEW_UNAVAILABLE_REASONS = ['too_large', 'unreadable', 'failed'] as const;
export type PreviewUnavailableReason = (typeof PREVIEW_UNAVAILABLE_REASONS)[number];

/** At most this many files in one version. */
export const MAX_FILES_PER_VERSION = 20;
/** A file name is kept to this many characters (the extension survives). */
export const MAX_FILE_NAME = 200;
/**
 * How long an unfinished upload may sit with nothing arriving before it
 * expires and is swept (within 10 minutes): each file that arrives gives it
 * this long again, so a slow phone's many files are never cut short.
 */
export const UPLOAD_IDLE_MS = 2 * 60 * 60 * 1000;
