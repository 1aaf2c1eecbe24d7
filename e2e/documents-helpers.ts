import type { Locator } from '@playwright/test';
import { expect } from './fixtures';

// What the documents specs share.

/** The PDF drawn by pdf.js in the open preview dialog: loading pdf.js and drawing a page takes a busy machine a while. */
export async function expectPdfDrawn(dialog: Locator, name: string) {
  await expect(dialog.getByRole('img', { name: new RegExp(`^${name.replace(/\./g, '\\.')}, page 1`) })).toHaveAttribute('data-rendered', 'true', {
    timeout: 60_000,
  });
}
