import { beforeAll, describe, expect, it } from 'vitest';
import type { ChecklistItemView, ChecklistView } from '../../../shared/schemas/checklist';
import type { UploadView } from '../../../shared/schemas/documents';
import { setupApi } from '../../../test/api';
import { backends } from '../../../test/databases';
import { addBorrower, createLoan, createTeamWithOwner, type Person } from '../../../test/factories';
import { rawExchange } from '../../../test/http';
import { noisePng, samplePdf } from '../../../test/sample-files';
import { UPLOAD_MIN_BYTES_PER_WINDOW } from './timeouts';

/*
 * A body sent too slowly is ended with a 408 naming why: an ordinary body
 * must arrive whole within BODY_TIMEOUT_SECONDS (1 s here), an upload must
 * keep bringing 16 KB in every such window. A steady upload slower than the
 * window as a whole still arrives. (The finding: a body trickled a byte every
 * 5 s was still open after 70 s.)
 */
describe.each(backends)('request timeouts on %s', (backend) => {
  const api = setupApi(backend, { env: { BODY_TIMEOUT_SECONDS: '1', REQUEST_TIMEOUT_SECONDS: '600', CONNECTION_TIMEOUT_SECONDS: '90' }, listen: true });
  let borrower: Person;
  let loanId: string;
  let itemId: string;
  const port = () => Number(new URL(api.baseUrl).port);

  beforeAll(async () => {
    const team = await createTeamWithOwner(api);
    loanId = (await createLoan(api, team.teamId, team.owner)).id;
    borrower = await addBorrower(api, loanId);
    itemId = (await api.as(borrower).get(`/api/loans/${loanId}/checklist`)).json<ChecklistView<ChecklistItemView>>().items[0]!.id;
  });

  const announce = async (size: number, name = 'slow.pdf') => {
    const started = await api.as(borrower).post(`/api/loans/${loanId}/checklist/items/${itemId}/uploads`, { files: [{ name, size }] });
    expect(started.statusCode, started.body).toBe(201);
    return started.json<UploadView>().id;
  };
  const putHead = (uploadId: string, length: number) =>
    `PUT /api/loans/${loanId}/checklist/items/${itemId}/uploads/${uploadId}/files/1 HTTP/1.1\r\nHost: 127.0.0.1\r\n` +
    `Origin: ${api.config.publicUrl}\r\nCookie: ${borrower.cookie}\r\nContent-Type: application/pdf\r\nContent-Length: ${length}\r\n\r\n`;

  it('sets Node’s whole-request and idle limits from the configuration', () => {
    expect(api.app.server.requestTimeout).toBe(600_000);
    expect(api.app.server.timeout).toBe(90_000);
  });

  it('ends an ordinary body trickled a byte at a time with a 408 once the window passes', async () => {
    const body = JSON.stringify({ fullName: 'Tricia Trickle', email: 'tricia@trickle.test' });
    const head = `POST /api/waitlist HTTP/1.1\r\nHost: 127.0.0.1\r\nOrigin: ${api.config.publicUrl}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`;
    const started = Date.now();
    const answer = await rawExchange(
      port(),
      head,
      [...Buffer.from(body)].map((byte) => Buffer.from([byte])),
      'keep',
      { pause: 250, waitMs: 15_000 },
    );
    expect(answer.status, answer.text).toBe(408);
    expect(answer.text).toContain('did not arrive within 1 seconds');
    expect(answer.text.toLowerCase()).toContain('connection: close');
    // Ended at the first window or the second (the timer's phase), long before the trickle would end (about 15 s).
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('ends an upload that stalls (a byte at a time) with a 408 saying so, and the upload can be sent again', async () => {
    const pdf = await samplePdf('A statement sent again after a stall');
    const uploadId = await announce(pdf.length);
    const answer = await rawExchange(
      port(),
      putHead(uploadId, pdf.length),
      [...pdf.subarray(0, 40)].map((byte) => Buffer.from([byte])),
      'keep',
      {
        pause: 100,
        waitMs: 15_000,
      },
    );
    expect(answer.status, answer.text).toBe(408);
    expect(answer.text).toContain(`less than ${UPLOAD_MIN_BYTES_PER_WINDOW / 1024} KB arrived in 1 seconds`);
    const again = await api
      .as(borrower)
      .put(`/api/loans/${loanId}/checklist/items/${itemId}/uploads/${uploadId}/files/1`, pdf, { headers: { 'content-type': 'application/pdf' } });
    expect(again.statusCode, again.body).toBe(200);
  });

  it('lets a steady upload take several windows, as a slow phone’s does', async () => {
    // 24 KB every 400 ms: 60 KB a second, well over the minimum in every 1 s window, about 3 s in all.
    const pdf = noisePng(300, 200);
    const uploadId = await announce(pdf.length, 'photo.png');
    const pieces: Buffer[] = [];
    for (let at = 0; at < pdf.length; at += 24 * 1024) pieces.push(pdf.subarray(at, at + 24 * 1024));
    const started = Date.now();
    const answer = await rawExchange(port(), putHead(uploadId, pdf.length), pieces, 'keep', { pause: 400, waitMs: 30_000 });
    expect(answer.status, answer.text).toBe(200);
    expect(Date.now() - started).toBeGreaterThan(1_500);
  });
});
