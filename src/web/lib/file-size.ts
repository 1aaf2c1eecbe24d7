const UNITS = ['KB', 'MB', 'GB', 'TB'];

/** A file's size for people: "820 bytes", "14 KB", "2.3 MB" (1 KB = 1,024 bytes, as file managers count). */
export function formatFileSize(bytes: number): string {
  if (bytes < 1024) return `${bytes.toLocaleString('en-US')} ${bytes === 1 ? 'byte' : 'bytes'}`;
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  const digits = value < 10 ? 1 : 0;
  return `${value.toLocaleString('en-US', { maximumFractionDigits: digits })} ${UNITS[unit]}`;
}

/** Why the page will not send a file of `bytes`, before sending anything: the server refuses it too (an empty file, or over MAX_UPLOAD_MB). */
export function fileSizeProblem(bytes: number, maxBytes: number): string | null {
  if (bytes === 0) return 'This file is empty.';
  if (bytes > maxBytes) return `This file is larger than ${formatFileSize(maxBytes)}, the most a file may be.`;
  return null;
}
