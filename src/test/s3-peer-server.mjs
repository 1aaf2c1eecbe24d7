// The tests' S3 server, in a process of its own (s3-peer.ts starts it): s3rver over the folder
// given as the first argument, on a random loopback port, printed as one JSON line once it listens.
// It runs with --openssl-legacy-provider because s3rver seals its ListObjectsV2 continuation
// tokens with DES, which OpenSSL 3 offers only there. It stops on SIGTERM, or when its parent goes.
import S3rver from 's3rver';

const server = new S3rver({ address: '127.0.0.1', port: 0, directory: process.argv[2], silent: true });
const address = await server.run();
process.stdout.write(`${JSON.stringify({ port: address.port })}\n`);

const stop = () => server.close().finally(() => process.exit(0));
process.on('SIGTERM', stop);
process.stdin.on('end', stop);
process.stdin.resume();
