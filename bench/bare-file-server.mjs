// The yardstick of the upload benchmark: a bare node:http server that streams
// a request body to a file (synced, like the app's store) and a file back out,
// with nothing else: no parsing, no encryption, no database.
import { createReadStream, createWriteStream } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { createServer } from 'node:http';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';

const dir = process.env.BARE_DIR;
const port = Number(process.env.PORT);

createServer(async (req, res) => {
  try {
    if (req.url === '/healthz') return res.end('ok');
    const file = path.join(dir, 'upload.bin');
    if (req.method === 'PUT') {
      await pipeline(req, createWriteStream(file));
      const handle = await open(file, 'r');
      await handle.sync();
      await handle.close();
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end('{"stored":true}');
    }
    const { size } = await stat(file);
    res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': size });
    await pipeline(createReadStream(file), res);
  } catch (error) {
    res.destroy(error);
  }
}).listen(port, '127.0.0.1');
