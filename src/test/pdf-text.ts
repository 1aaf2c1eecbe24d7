import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';

/**
 * The text of every page of a PDF, read by pdf.js (the reader the web app
 * previews with), its pieces joined by single spaces: what a person
 * selecting the text would get, to assert what a generated PDF says.
 */
export async function pdfText(bytes: Buffer): Promise<{ pages: number; text: string }> {
  const document = await getDocument({ data: new Uint8Array(bytes), isEvalSupported: false, useSystemFonts: false, verbosity: 0 }).promise;
  try {
    const parts: string[] = [];
    for (let number = 1; number <= document.numPages; number++) {
      const content = await (await document.getPage(number)).getTextContent();
      for (const item of content.items) if ('str' in item) parts.push(item.str);
    }
    return { pages: document.numPages, text: parts.join(' ').replace(/\s+/g, ' ') };
  } finally {
    await document.destroy();
  }
}
