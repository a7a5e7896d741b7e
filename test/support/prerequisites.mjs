/**
 * What the test suite needs from the machine besides Node: git, a real registry
 * (Debian's docker-registry), openssl (the token server's certificate) and
 * chromium (the HTML report is rendered in a real browser). Checked before
 * anything else — as `npm test`'s pretest step and as vitest's globalSetup — so a
 * machine without them fails in its first second with the one line that fixes it,
 * not with six failed files after a minute. Plain JS: it runs before the build.
 */
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** The one line (openssl is on nearly every machine: it is added only when missing). */
export const INSTALL_LINE = 'sudo apt-get install -y git docker-registry chromium';

/** Each needed program: an absolute path the tests use, or a name looked up on PATH. */
const NEEDED = [
  { pkg: 'git', name: 'git' },
  { pkg: 'docker-registry', path: '/usr/bin/docker-registry' },
  { pkg: 'chromium', path: '/usr/bin/chromium' },
  { pkg: 'openssl', name: 'openssl' },
];

function executable(path) {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The Debian packages missing on this machine (`env.PATH` for names; `root` prefixes the absolute paths, for tests). */
export function missingPrerequisites(env = process.env, root = env.PINWATCH_PREREQ_ROOT ?? '') {
  const dirs = (env.PATH ?? '').split(delimiter).filter(Boolean);
  return NEEDED.filter((n) => (n.path ? !executable(`${root}${n.path}`) : !dirs.some((d) => executable(join(d, n.name))))).map((n) => n.pkg);
}

/** The message for missing packages: what is missing, then the one install line. */
export function prerequisiteMessage(missing) {
  return [
    `pinwatch tests: missing ${missing.join(', ')} (the suite runs real git, a real registry and a real browser).`,
    `Install them first, then run npm test again:`,
    ``,
    `    ${INSTALL_LINE}${missing.includes('openssl') ? ' openssl' : ''}`,
    ``,
    `(or, as root on Debian/Ubuntu: bash .ci/run, which installs them and runs the tests)`,
  ].join('\n');
}

/** vitest globalSetup: refuse the run before any test file starts. */
export function setup() {
  const missing = missingPrerequisites();
  if (missing.length > 0) throw new Error(prerequisiteMessage(missing));
}

// `node test/support/prerequisites.mjs` (npm's pretest): exit 1 with the message.
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const missing = missingPrerequisites();
  if (missing.length > 0) {
    process.stderr.write(`${prerequisiteMessage(missing)}\n`);
    process.exitCode = 1;
  }
}
