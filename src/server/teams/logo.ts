import { createHash } from 'node:crypto';
import type { LogoType } from '../../shared/schemas/teams';

/**
 * The image type a logo's bytes really are, read from their signature, or
 * null. The declared Content-Type is never trusted on its own; SVG is not
 * accepted (it can carry script).
 */
export function sniffLogoType(bytes: Buffer): LogoType | null {
  if (bytes.length >= 8 && bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'image/png';
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  if (bytes.length >= 12 && bytes.toString('latin1', 0, 4) === 'RIFF' && bytes.toString('latin1', 8, 12) === 'WEBP') return 'image/webp';
  return null;
}

export const logoVersion = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** The logo's public path: its version in the path makes it cacheable for good. */
export const logoPath = (teamId: string, sha256: string | null) => (sha256 ? `/api/team-logos/${teamId}/${sha256.slice(0, 16)}` : null);
