// The little of fontkit (pdfkit's font engine) the cover sheet uses: parsing a font once to hand it to every PDF.
declare module 'fontkit' {
  /** A parsed font; pdfkit lays out and subsets it. */
  export interface Font {
    layout(text: string): unknown;
  }
  export function create(buffer: Uint8Array, postscriptName?: string): Font;
}
