// `npm run dev`: the API (built server on port 3001, embedded defaults) behind
// Vite's dev server on port 5173 with hot reload for the web app.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { ensureBuilt, ensureInstalled, root } from './lib/ensure.mjs';

ensureInstalled();
ensureBuilt();
const api = spawn(process.execPath, [path.join(root, 'dist/server/main.js')], {
  cwd: root,
  stdio: 'inherit',
  env: { PORT: '3001', PUBLIC_URL: 'http://localhost:5173', ...process.env },
});
const vite = spawn(process.execPath, [path.join(root, 'node_modules/vite/bin/vite.js')], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, API_PORT: '3001' },
});
const stop = () => {
  api.kill('SIGTERM');
  vite.kill('SIGTERM');
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
api.on('exit', stop);
vite.on('exit', stop);
