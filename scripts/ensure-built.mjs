// Used by `npm run cli`: the CLI runs from the server bundle.
import { ensureBuilt, ensureInstalled } from './lib/ensure.mjs';

ensureInstalled();
ensureBuilt();
