/**
 * The policy for new passwords, after NIST SP 800-63B §5.1.1.2: 12 to 128
 * characters, no composition rules, and no password that is known to be
 * common or breached, trivially guessable, or built from the person's own
 * e-mail address or name or the service's name.
 *
 * DEPLOYMENT REQUIREMENT: the blocklist `common-passwords.txt`
 * (COMMON_PASSWORDS_FILE) is read from the folder this module runs from.
 * From source (tests, tsx) that is src/server/auth/. In production esbuild
 * bundles this module into dist/server/main.js and dist/server/cli.js, so
 * the server build must copy src/server/auth/common-passwords.txt to
 * dist/server/common-passwords.txt, as it copies the migrations. Without the
 * file the first check throws instead of quietly accepting breached passwords.
 * The list, its sources and licences: common-passwords.README.md.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PASSWORD_LENGTH_MESSAGES, PASSWORD_UNSAFE_TEXT_MESSAGE, passwordLengthProblem, type PasswordLengthProblem } from '../../shared/schemas/password';
import { isSafeText } from '../../shared/schemas/text';

export const COMMON_PASSWORDS_FILE = 'common-passwords.txt';

/** Next to this module, or next to the bundle it was built into. */
export const commonPasswordsPath = path.join(path.dirname(fileURLToPath(import.meta.url)), COMMON_PASSWORDS_FILE);

export interface PasswordContext {
  email?: string;
  name?: string;
  brandName?: string;
}

export type PasswordProblemCode = PasswordLengthProblem | 'common' | 'context' | 'unsafe_text';

export type PasswordCheck = { ok: true } | { ok: false; code: PasswordProblemCode; message: string };

const COMMON_MESSAGE = 'This password is too common. Choose a longer phrase that is hard to guess.';
const PATTERN_MESSAGE = 'This password is too easy to guess. Avoid repeated characters and runs like 1234 or abcd.';
const PERSONAL_MESSAGE = 'Choose a password that is not based on your e-mail address or name.';
const BRAND_MESSAGE = 'Choose a password that is not based on the name of this service.';

let commonPasswords: Set<string> | undefined;
let commonPasswordLoads = 0;

/**
 * The blocklist, read from disk on first use and kept for the life of the
 * process (about 60,000 entries, a few MB in memory). Calling it at start-up
 * turns a missing file into a start-up failure rather than a failed sign-up.
 */
export function loadCommonPasswords(): ReadonlySet<string> {
  if (!commonPasswords) {
    let text: string;
    try {
      text = readFileSync(commonPasswordsPath, 'utf8');
    } catch (error) {
      throw new Error(
        `Cannot read the common-password list at ${commonPasswordsPath}; the server build must copy ${COMMON_PASSWORDS_FILE} next to the bundle`,
        { cause: error },
      );
    }
    // CRLF tolerated in case a checkout converted line endings.
    commonPasswords = new Set(text.split(/\r?\n/).filter((line) => line !== ''));
    commonPasswordLoads += 1;
  }
  return commonPasswords;
}

/** How many times the list was read from disk: 1 once loaded, however many checks ran. */
export function commonPasswordListLoads(): number {
  return commonPasswordLoads;
}

/**
 * Compatibility folding: full-width, ligature and other look-alike forms
 * become their plain letters, so 'ＰＡＳＳＷＯＲＤ１２３４' is 'password1234'.
 * The shipped list is folded the same way by scripts/build-common-passwords.mjs.
 */
function fold(text: string): string {
  return text.normalize('NFKC').toLowerCase();
}

const SEQUENCE_ALPHABETS = ['0123456789', 'abcdefghijklmnopqrstuvwxyz'];

/**
 * One character repeated, or a run up or down one alphabet ('123456789012',
 * 'lkjihgfedcba'). Runs wrap around ('…7890', '…xyzab') because a 12-character
 * run of digits must, and people continue past 9 to 0 as the keyboard does.
 */
function isRepeatOrRun(folded: string): boolean {
  if (new Set(folded).size === 1) return true;
  return SEQUENCE_ALPHABETS.some((alphabet) => {
    const start = alphabet.indexOf(folded.charAt(0));
    if (start < 0) return false;
    return [1, alphabet.length - 1].some((step) => {
      let run = '';
      for (let i = 0; i < folded.length; i += 1) run += alphabet.charAt((start + i * step) % alphabet.length);
      return run === folded;
    });
  });
}

/** Digits, punctuation, symbols and spaces: what people put around a word to pass a length check. */
const AFFIXES = /^[\p{N}\p{P}\p{S}\s]+|[\p{N}\p{P}\p{S}\s]+$/gu;
/** Punctuation, symbols and spaces inside a word: 'dana.broker' and 'Dana Broker' are one word. */
const SEPARATORS = /[\p{P}\p{S}\s]+/gu;

/** What is left of folded text once affixes and separators are gone. */
function stem(folded: string): string {
  return folded.replace(AFFIXES, '').replace(SEPARATORS, '');
}

/**
 * Parts shorter than this are initials or particles ('j', 'de'): refusing
 * 'de' plus ten digits as "based on your name" would puzzle more than it protects.
 */
const MIN_PART_LENGTH = 3;

/** The stems a password must not reduce to, each with the message that names its source. */
function contextStems(context: PasswordContext): Map<string, string> {
  const stems = new Map<string, string>();
  const add = (text: string, message: string, minLength = 1) => {
    const value = stem(fold(text));
    if ([...value].length >= minLength && !stems.has(value)) stems.set(value, message);
  };
  // 'dana.broker' and 'Dana Broker' also yield 'dana' and 'broker' on their own.
  const addWithParts = (text: string) => {
    add(text, PERSONAL_MESSAGE);
    for (const part of fold(text).split(SEPARATORS)) add(part, PERSONAL_MESSAGE, MIN_PART_LENGTH);
  };
  // Personal words first, so a name that equals the brand gets the personal message.
  if (context.email) {
    add(context.email, PERSONAL_MESSAGE);
    addWithParts(context.email.replace(/@[^@]*$/, ''));
  }
  if (context.name) addWithParts(context.name);
  if (context.brandName) add(context.brandName, BRAND_MESSAGE);
  return stems;
}

/**
 * Checks a new password, in order: length (the shared schema's rule), the
 * shipped list of common and breached passwords, repeats and runs, then
 * context-specific words (NIST SP 800-63B §5.1.1.2). Comparisons ignore
 * case and compatibility forms; the length counts what the person typed.
 */
export function checkPassword(password: string, context: PasswordContext = {}): PasswordCheck {
  if (!isSafeText(password)) return { ok: false, code: 'unsafe_text', message: PASSWORD_UNSAFE_TEXT_MESSAGE };
  const lengthProblem = passwordLengthProblem(password);
  if (lengthProblem) return { ok: false, code: lengthProblem, message: PASSWORD_LENGTH_MESSAGES[lengthProblem] };

  const folded = fold(password);
  if (loadCommonPasswords().has(folded)) return { ok: false, code: 'common', message: COMMON_MESSAGE };
  if (isRepeatOrRun(folded)) return { ok: false, code: 'common', message: PATTERN_MESSAGE };

  const passwordStem = stem(folded);
  const contextMessage = passwordStem ? contextStems(context).get(passwordStem) : undefined;
  if (contextMessage) return { ok: false, code: 'context', message: contextMessage };

  return { ok: true };
}
