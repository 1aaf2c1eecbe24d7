// A process that starts storing an endless body in the object store the configuration names (DATA_DIR, S3_*),
// says "storing" on standard output once a few MiB have gone in, and waits to be killed: what a server killed
// mid-upload leaves behind. Bundled and started by crash.test.ts.
import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { loadConfig } from '../../server/config';
import { openObjectStore } from '../../server/platform/files/open-vault';

const store = await openObjectStore(loadConfig(process.env));
let sent = 0;
const body = new Readable({
  read() {
    this.push(randomBytes(256 * 1024));
    sent += 256 * 1024;
    if (sent === 12 * 1024 * 1024) process.stdout.write('storing\n');
  },
});
await store.put(process.argv[2]!, body);
