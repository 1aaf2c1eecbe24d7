import { describe, expect, it } from 'vitest';
import { fileSizeProblem, formatFileSize } from './file-size';

describe('formatFileSize', () => {
  it('writes bytes, then KB, MB and GB with one decimal below ten', () => {
    expect([1, 820, 1024, 14_500, 50 * 1024 * 1024, 2.34 * 1024 * 1024, 3 * 1024 ** 3].map(formatFileSize)).toEqual([
      '1 byte',
      '820 bytes',
      '1 KB',
      '14 KB',
      '50 MB',
      '2.3 MB',
      '3 GB',
    ]);
  });

  it('refuses an empty file and one over the limit before anything is sent, and lets the limit itself through', () => {
    const max = 50 * 1024 * 1024;
    expect(fileSizeProblem(0, max)).toBe('This file is empty.');
    expect(fileSizeProblem(max, max)).toBeNull();
    expect(fileSizeProblem(max + 1, max)).toBe('This file is larger than 50 MB, the most a file may be.');
  });
});
