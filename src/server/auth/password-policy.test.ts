import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import {
  COMMON_PASSWORDS_FILE,
  checkPassword,
  commonPasswordListLoads,
  commonPasswordsPath,
  loadCommonPasswords,
  type PasswordContext,
} from './password-policy';

const here = path.dirname(fileURLToPath(import.meta.url));

const codeOf = (password: string, context?: PasswordContext) => {
  const result = checkPassword(password, context);
  return result.ok ? 'ok' : result.code;
};

describe('checkPassword: length', () => {
  it('counts code points, from 12 to 128', () => {
    expect(checkPassword('mauve tuesd')).toEqual({ ok: false, code: 'too_short', message: 'Use at least 12 characters' });
    expect(checkPassword('mauve tuesda')).toEqual({ ok: true });
    expect(codeOf('mauve tuesday lanterns '.repeat(6).slice(0, 128))).toBe('ok');
    expect(checkPassword('mauve tuesday lanterns '.repeat(6).slice(0, 129))).toEqual({
      ok: false,
      code: 'too_long',
      message: 'Use at most 128 characters',
    });
  });

  it('counts an emoji as one character', () => {
    expect(codeOf('🐢🌵 slow cactus')).toBe('ok'); // 14 code points
    expect(codeOf('🐢🐢🐢 cactus!')).toBe('too_short'); // 11 code points, 14 UTF-16 units
    expect(codeOf(`🐢🌵${'x'.repeat(126)}`)).toBe('ok');
    expect(codeOf(`🐢🌵${'x'.repeat(127)}`)).toBe('too_long');
  });

  it('checks length before anything else', () => {
    expect(codeOf('aaaaaaaaaaa')).toBe('too_short');
    expect(codeOf('dana.broker', { email: 'dana.broker@example.com' })).toBe('too_short');
  });
});

describe('checkPassword: no composition rules', () => {
  it.each(['correct horse battery', 'mauve tuesday lanterns', 'lowercaseonlyphrase', 'ÉTÉ À LA PLAGE DE NICE', '🐢🌵🐢🌵🐢🌵🐢🌵🐢🌵🐢🌵'])(
    'accepts %j',
    (password) => {
      expect(checkPassword(password)).toEqual({ ok: true });
    },
  );
});

describe('checkPassword: common and breached passwords', () => {
  const common = { ok: false, code: 'common', message: 'This password is too common. Choose a longer phrase that is hard to guess.' };

  it.each(['123qweasdzxc', 'Qwerty123456', 'LeaveMeAlone', 'FinalFantasy', 'ILoveMyFamily', 'Password1234', 'qwertyuiop12', 'Welcome2024!'])(
    'rejects %j, whatever its case',
    (password) => {
      expect(loadCommonPasswords().has(password.toLowerCase())).toBe(true);
      expect(checkPassword(password)).toEqual(common);
    },
  );

  it('folds full-width and other compatibility forms before the lookup', () => {
    expect(checkPassword('ＰＡＳＳＷＯＲＤ１２３４')).toEqual(common);
  });

  it('does not trim: a listed password with spaces around it is another password', () => {
    expect(codeOf(' password1234 ')).toBe('ok');
  });
});

describe('the shipped list', () => {
  const text = readFileSync(path.join(here, COMMON_PASSWORDS_FILE), 'utf8');
  const lines = text.split('\n').slice(0, -1);

  it('is one folded entry a line, 12 to 128 code points, sorted and each once, under 2 MB', () => {
    expect(Buffer.byteLength(text)).toBeLessThan(2 * 1024 * 1024);
    expect(text.endsWith('\n')).toBe(true);
    expect(lines.length).toBeGreaterThan(50_000);
    expect(lines.every((line, i) => i === 0 || (lines[i - 1] ?? '') < line)).toBe(true);
    const misfits = lines.filter((line) => {
      const length = [...line].length;
      return length < 12 || length > 128 || line !== line.normalize('NFKC').toLowerCase() || line.trim() !== line;
    });
    expect(misfits).toEqual([]);
  });

  it('holds no e-mail addresses, which would identify people', () => {
    expect(lines.filter((line) => /^[^\s@]+@[^\s@]+\.[a-z]{2,}$/.test(line))).toEqual([]);
  });

  it('is what the policy loads', () => {
    expect(commonPasswordsPath).toBe(path.join(here, COMMON_PASSWORDS_FILE));
    expect(loadCommonPasswords().size).toBe(lines.length);
  });
});

describe('checkPassword: repeats and runs', () => {
  const pattern = {
    ok: false,
    code: 'common',
    message: 'This password is too easy to guess. Avoid repeated characters and runs like 1234 or abcd.',
  };

  // None of these is in the shipped list, so the rule itself is what rejects them.
  it.each([
    'qqqqqqqqqqqqq',
    'QqQqQqQqQqQqQq',
    '             ',
    '🔑🔑🔑🔑🔑🔑🔑🔑🔑🔑🔑🔑',
    '345678901234',
    '567890123456789',
    '987654321098',
    'cdefghijklmno',
    'ZYXWVUTSRQPO',
    'uvwxyzabcdefgh',
    '３４５６７８９０１２３４',
  ])('rejects %j', (password) => {
    expect(loadCommonPasswords().has(password.normalize('NFKC').toLowerCase())).toBe(false);
    expect(checkPassword(password)).toEqual(pattern);
  });

  it.each(['abcdefghijkm', '135791357913', 'aaaaaaaaaaab', 'abcabcabcxyz'])('accepts the near miss %j', (password) => {
    expect(codeOf(password)).toBe('ok');
  });
});

describe('checkPassword: context-specific words', () => {
  const context = { email: 'Dana.Broker88@Example.com', name: 'Dana Broker', brandName: 'Coverly' };
  const personal = { ok: false, code: 'context', message: 'Choose a password that is not based on your e-mail address or name.' };
  const brand = { ok: false, code: 'context', message: 'Choose a password that is not based on the name of this service.' };

  it.each([
    'dana.broker88@example.com',
    'Dana.Broker88@Example.com!',
    'dana.broker88',
    'DanaBroker2024!',
    '2024 Dana Broker',
    'dana_broker_123',
    'broker1234567',
    'Dana#8675309#',
    'ＤＡＮＡＢＲＯＫＥＲ９９',
  ])('rejects %j as the e-mail address or name with digits or punctuation added', (password) => {
    expect(checkPassword(password, context)).toEqual(personal);
  });

  it('rejects the brand name with digits or punctuation added', () => {
    expect(checkPassword('Coverly#2024#', context)).toEqual(brand);
    expect(checkPassword('coverly!!!!!!!', { brandName: 'Coverly' })).toEqual(brand);
  });

  it('names the person when their name is also the brand', () => {
    expect(checkPassword('coverly#2024#', { name: 'Coverly', brandName: 'Coverly' })).toEqual(personal);
  });

  it('accepts passwords that merely contain those words', () => {
    expect(codeOf('dana walks the broker dog', context)).toBe('ok');
    expect(codeOf('danabroker plus more', context)).toBe('ok');
    expect(codeOf('Dana2Broker2024', context)).toBe('ok');
  });

  it('ignores the e-mail domain on its own and short name particles', () => {
    expect(codeOf('example#2024#', context)).toBe('ok');
    expect(codeOf('de#8675309#55', { name: 'Maria de la Cruz' })).toBe('ok');
    expect(codeOf('cruz#8675309#', { name: 'Maria de la Cruz' })).toBe('context');
    expect(codeOf('mariadelacruz1', { name: 'Maria de la Cruz' })).toBe('context');
  });

  it('checks only the context it is given', () => {
    expect(codeOf('DanaBroker2024!')).toBe('ok');
    expect(codeOf('Coverly#2024#', { email: 'dana@example.com' })).toBe('ok');
  });

  it('reports a common password as common even when it is also personal', () => {
    expect(codeOf('Qwerty123456', { name: 'Qwerty' })).toBe('common');
  });
});

describe('loading the list', () => {
  it('reads the file once, however many checks run', () => {
    const list = loadCommonPasswords();
    for (let i = 0; i < 10_000; i += 1) {
      checkPassword(`${i % 2 ? 'Qwerty123456' : 'mauve tuesday'} ${i}`, { name: 'Dana Broker' });
    }
    expect(loadCommonPasswords()).toBe(list);
    expect(commonPasswordListLoads()).toBe(1);
  });

  it('works from a bundle when the build copies the list next to it, and fails loudly when it does not', async () => {
    const dist = mkdtempSync(path.join(tmpdir(), 'coverly-password-policy-'));
    try {
      // Bundled as the server build does (dist/server/main.js), zod included so the bundle runs from a temp folder.
      const bundle = path.join(dist, 'server', 'main.js');
      await build({
        entryPoints: [path.join(here, 'password-policy.ts')],
        outfile: bundle,
        bundle: true,
        platform: 'node',
        format: 'esm',
        target: 'node20',
        logLevel: 'silent',
      });
      const run = () => {
        const script = `import { checkPassword } from ${JSON.stringify(pathToFileURL(bundle).href)};
          try { console.log(JSON.stringify(checkPassword('Password1234'))); } catch (error) { console.log(JSON.stringify({ thrown: error.message })); }`;
        return JSON.parse(execFileSync(process.execPath, ['--input-type=module', '--eval', script], { encoding: 'utf8' })) as unknown;
      };

      const missing = path.join(dist, 'server', COMMON_PASSWORDS_FILE);
      expect(run()).toEqual({ thrown: expect.stringContaining(`${missing}; the server build must copy ${COMMON_PASSWORDS_FILE} next to the bundle`) });

      copyFileSync(path.join(here, COMMON_PASSWORDS_FILE), missing);
      expect(run()).toMatchObject({ ok: false, code: 'common' });
    } finally {
      rmSync(dist, { recursive: true, force: true });
    }
  });
});
