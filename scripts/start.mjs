// `npm start`: install and build when needed, then run the server in this process.
import { pathToFileURL } from 'node:url';
import path from 'node:path';
import { ensureBuilt, ensureInstalled, root } from './lib/ensure.mjs';

ensureInstalled();
ensureBuilt();
await import(pathToFileURL(path.join(root, 'dist/server/main.js')).href);
