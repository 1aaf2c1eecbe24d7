import { expect } from 'vitest';
import type { UploadView, VersionView } from '../shared/schemas/documents';
import type { Api } from './api';
import type { Person } from './factories';

export interface UploadFile {
  name: string;
  bytes: Buffer;
}

/** Uploads `files` as one new version of an item, the way the web app does: announce, send each, complete. */
export async function uploadVersion(api: Api, who: Person, loanId: string, itemId: string, files: UploadFile[]): Promise<VersionView> {
  const base = `/api/loans/${loanId}/checklist/items/${itemId}`;
  const started = await api.as(who).post(`${base}/uploads`, { files: files.map(({ name, bytes }) => ({ name, size: bytes.length })) });
  expect(started.statusCode, started.body).toBe(201);
  const upload = started.json<UploadView>();
  for (const [index, file] of files.entries()) {
    const sent = await api
      .as(who)
      .put(`${base}/uploads/${upload.id}/files/${index + 1}`, file.bytes, { headers: { 'content-type': 'application/octet-stream' } });
    expect(sent.statusCode, sent.body).toBe(200);
  }
  const done = await api.as(who).post(`${base}/uploads/${upload.id}/complete`);
  expect(done.statusCode, done.body).toBe(201);
  return done.json<VersionView>();
}
