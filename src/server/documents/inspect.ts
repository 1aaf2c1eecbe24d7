import { fileTypeFromBuffer } from 'file-type';
import { isDocumentType, type DocumentType } from '../../shared/domain/documents';
import { AppError } from '../../shared/errors';

const HEAD_BYTES = 64 * 1024;

/** Decides what an uploaded file is from its bytes as they stream past (replaced by the full inspector). */
export function createInspector() {
  const head: Buffer[] = [];
  let headBytes = 0;
  let total = 0;
  return {
    update(chunk: Buffer) {
      total += chunk.length;
      if (headBytes < HEAD_BYTES) {
        head.push(chunk.subarray(0, HEAD_BYTES - headBytes));
        headBytes += Math.min(chunk.length, HEAD_BYTES - headBytes);
      }
    },
    async finish(): Promise<DocumentType> {
      if (total === 0) throw new AppError('unsupported_media_type', 'This file is empty');
      const found = await fileTypeFromBuffer(Buffer.concat(head));
      if (found && isDocumentType(found.mime)) return found.mime;
      throw new AppError('unsupported_media_type', 'Upload PDF, JPEG, PNG, HEIC, TIFF, DOCX, XLSX or CSV files');
    },
  };
}

/** A name safe to show and to send back in Content-Disposition. */
export const safeFileName = (name: string, _type: DocumentType) => name.normalize('NFC').slice(0, 200);
