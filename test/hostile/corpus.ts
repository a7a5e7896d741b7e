/**
 * The hostile corpus (issue 16): repositories built the way an attacker's pull
 * request could shape them — malformed and templated YAML, alias bombs, deep
 * nesting, binary, NUL, UTF-16, CRLF/BOM, FIFOs, devices, sockets, symlink loops
 * and escapes, odd file names, option-like refs and git refs, every control byte
 * in subjects, bodies, paths and contents, shallow, empty and submodule
 * repositories, worktrees, hostile pinwatch.yaml. Each case builds one repo inside
 * a jail folder whose `outside/` holds sentinel files the runs must never read
 * into their output nor write.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';

export const DIGEST = (c: string): string => `sha256:${c.repeat(64)}`;
export const SECRET = `pinwatch-hostile-secret-${process.pid}-7f3a`;

export interface Built {
  /** The repository to run pinwatch in. */
  repo: string;
  /** Repo-relative paths of wanted files that must appear in scan's pins, skipped or problems. */
  accounted?: string[];
  /** At least this many pins in scan's output (files whose names JSON cannot carry exactly). */
  minPins?: number;
  /** Servers to close after the runs (unix sockets). */
  servers?: Server[];
  /** Commands run besides the standard ones, each with what its stdout + stderr must say (the hostile file reported with its reason). */
  reports?: { args: string[]; says: RegExp[] }[];
}

export interface HostileCase {
  name: string;
  build(jail: string): Built | Promise<Built>;
}

const BASE_CONFIG = 'firstParty:\n  - ghcr.io/acme/\n';
let clock = Date.parse('2026-03-01T00:00:00Z');

export function git(dir: string, args: string[], input?: string): string {
  clock += 3600_000;
  const date = new Date(clock).toISOString();
  return execFileSync('git', args, {
    cwd: dir,
    input,
    encoding: 'utf8',
    env: { ...process.env, GIT_AUTHOR_NAME: 'H', GIT_AUTHOR_EMAIL: 'h@example.test', GIT_COMMITTER_NAME: 'H', GIT_COMMITTER_EMAIL: 'h@example.test', GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date, GIT_CONFIG_NOSYSTEM: '1', HOME: dir },
  }).trim();
}

function write(repo: string, files: Record<string, string | Buffer>): void {
  for (const [path, content] of Object.entries(files)) {
    const full = join(repo, path);
    mkdirSync(join(full, '..'), { recursive: true });
    writeFileSync(full, content);
  }
}

/** A small ordinary repository: one first-party image pinned by digest, built from src/app. */
function baseRepo(jail: string, extra: Record<string, string | Buffer> = {}, message = 'initial'): string {
  const repo = join(jail, 'repo');
  mkdirSync(repo, { recursive: true });
  git(repo, ['init', '-q', '-b', 'main']);
  write(repo, {
    'pinwatch.yaml': BASE_CONFIG,
    'src/app/main.go': 'package main\n',
    'src/app/Dockerfile': 'FROM golang:1.22 AS build\nCOPY . .\nFROM gcr.io/distroless/static\n',
    'charts/app/values.yaml': `image: ghcr.io/acme/app:v1.0.0@${DIGEST('a')}\n`,
    ...extra,
  });
  git(repo, ['add', '-A']);
  git(repo, ['commit', '-q', '-m', message]);
  return repo;
}

/** pinwatch.yaml declaring the base image's build, so stale, explain and affected read its Dockerfile and Go module. */
const IMAGE_CONFIG = `${BASE_CONFIG}images:\n  app:\n    repository: ghcr.io/acme/app\n    context: src/app\n`;
const GO_DOCKERFILE = 'FROM golang:1.22 AS build\nWORKDIR /src\nCOPY . .\nRUN go build -o /app .\nFROM gcr.io/distroless/static\nCOPY --from=build /app /app\n';

/** The commands that read build inputs, each required to name `file` and say why it was not read. */
function buildInputReports(file: string, why: RegExp, affectedSays = true): { args: string[]; says: RegExp[] }[] {
  const named = new RegExp(file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return [
    { args: ['explain', 'app'], says: [named, why] },
    { args: ['affected', '--base', 'HEAD~1'], says: affectedSays ? [named, why] : [/"image":"app"/] },
    { args: ['stale', '--format', 'json'], says: [] },
  ];
}

function commitAll(repo: string, message: string): void {
  git(repo, ['add', '-A']);
  git(repo, ['commit', '-q', '--allow-empty', '-m', message]);
}

/** A commit whose message bytes are exactly `message` (commit-tree takes any bytes but NUL). */
function commitRaw(repo: string, message: string): void {
  git(repo, ['add', '-A']);
  const tree = git(repo, ['write-tree']);
  const parent = git(repo, ['rev-parse', 'HEAD']);
  const sha = git(repo, ['commit-tree', tree, '-p', parent, '-F', '-'], message);
  git(repo, ['update-ref', 'refs/heads/main', sha]);
}

const CONTROL_BYTES = Array.from({ length: 32 }, (_, i) => i)
  .filter((b) => b !== 0 && b !== 10)
  .map((b) => String.fromCharCode(b))
  .join('') + '\x7f\u0085\u009b\u009d';

const ESCAPES = '\x1b]52;c;aGVsbG8=\x07\x1b]0;owned\x07\x1b[2J\x1b[1A\x1b[2K\rFORGED LINE';

export const CASES: HostileCase[] = [
  { name: 'ordinary repository (control)', build: (jail) => ({ repo: baseRepo(jail), accounted: ['charts/app/values.yaml'] }) },
  {
    name: 'malformed and templated YAML',
    build: (jail) => ({
      repo: baseRepo(jail, {
        'charts/bad/values.yaml': 'image: "ghcr.io/acme/app:v1\nkey: [unclosed\n\tTAB: x\n',
        'charts/tpl/values.yaml': 'image: {{ .Values.image }}\n{{- if .Values.x }}\nother: ghcr.io/acme/x:v1\n{{- end }}\n',
        'charts/weird/values.yaml': '? [complex, key]\n: value\n!!binary aGVsbG8=: x\n--- !tag\n%TAG ! tag:x\n',
      }),
      accounted: ['charts/bad/values.yaml', 'charts/tpl/values.yaml', 'charts/weird/values.yaml'],
    }),
  },
  {
    name: 'alias bomb and deep nesting',
    build: (jail) => {
      const bomb = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
      for (let i = 1; i < 10; i++) bomb.push(`${String.fromCharCode(97 + i)}: &${String.fromCharCode(97 + i)} [${Array(9).fill(`*${String.fromCharCode(96 + i)}`).join(',')}]`);
      return {
        repo: baseRepo(jail, {
          'charts/bomb/values.yaml': `${bomb.join('\n')}\nimage: ghcr.io/acme/app:v1\n`,
          'charts/deep/values.yaml': `${'['.repeat(20000)}${']'.repeat(20000)}\n`,
          'charts/deepmap/values.yaml': Array.from({ length: 3000 }, (_, i) => `${' '.repeat(i)}k${i}:`).join('\n') + ' ghcr.io/acme/app:v1\n',
        }),
        accounted: ['charts/bomb/values.yaml', 'charts/deep/values.yaml', 'charts/deepmap/values.yaml'],
      };
    },
  },
  {
    name: 'binary, NUL, UTF-16, CRLF and BOM',
    build: (jail) => ({
      repo: baseRepo(jail, {
        'charts/bin/values.yaml': Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0, 1, 2, 3, 0xff, 0xfe, 0, 0]),
        'charts/nul/values.yaml': `image: ghcr.io/acme/app:v1\0@${DIGEST('b')}\n`,
        'charts/u16/values.yaml': Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('image: ghcr.io/acme/app:v1\n', 'utf16le')]),
        'charts/crlf/values.yaml': `\ufeffimage: ghcr.io/acme/app:v1.0.0@${DIGEST('a')}\r\nother: 1\r\n`,
        'images/odd.tag': Buffer.from([0xc3, 0x28, 0x0a]),
      }),
      accounted: ['charts/bin/values.yaml', 'charts/nul/values.yaml', 'charts/u16/values.yaml', 'charts/crlf/values.yaml', 'images/odd.tag'],
    }),
  },
  {
    name: 'a 4 MB scalar and a 20,000-key map',
    build: (jail) => ({
      repo: baseRepo(jail, {
        'charts/huge/values.yaml': `image: ghcr.io/acme/${'a'.repeat(4_400_000)}:v1\n`,
        'charts/wide/values.yaml': Array.from({ length: 20000 }, (_, i) => `k${i}: ghcr.io/acme/app:v${i}`).join('\n') + '\n',
      }),
      accounted: ['charts/huge/values.yaml', 'charts/wide/values.yaml'],
    }),
  },
  {
    name: 'FIFO, device, socket and symlinks at wanted paths',
    build: async (jail) => {
      const repo = baseRepo(jail);
      mkdirSync(join(repo, 'charts/fifo'), { recursive: true });
      execFileSync('mkfifo', [join(repo, 'charts/fifo/values.yaml')]);
      mkdirSync(join(repo, 'charts/zero'), { recursive: true });
      symlinkSync('/dev/zero', join(repo, 'charts/zero/values.yaml'));
      mkdirSync(join(repo, 'charts/out'), { recursive: true });
      symlinkSync(join(jail, 'outside/secret.yaml'), join(repo, 'charts/out/values.yaml'));
      mkdirSync(join(repo, 'charts/loop'), { recursive: true });
      symlinkSync('values.yaml', join(repo, 'charts/loop/values.yaml'));
      symlinkSync('.', join(repo, 'charts/loop/again'));
      mkdirSync(join(repo, 'charts/sock'), { recursive: true });
      const server = createServer();
      await new Promise<void>((resolve) => server.listen(join(repo, 'charts/sock/values.yaml'), resolve));
      return {
        repo,
        servers: [server],
        accounted: ['charts/fifo/values.yaml', 'charts/zero/values.yaml', 'charts/out/values.yaml', 'charts/loop/values.yaml', 'charts/sock/values.yaml'],
      };
    },
  },
  {
    name: 'build inputs: a FIFO Dockerfile',
    build: (jail) => {
      const repo = baseRepo(jail, { 'pinwatch.yaml': IMAGE_CONFIG });
      write(repo, { 'src/app/main.go': 'package main\n// changed\n' });
      commitAll(repo, 'fix(app): change');
      // git cannot commit a FIFO: the working tree holds one where the committed Dockerfile was.
      execFileSync('rm', [join(repo, 'src/app/Dockerfile')]);
      execFileSync('mkfifo', [join(repo, 'src/app/Dockerfile')]);
      return { repo, accounted: ['charts/app/values.yaml'], reports: buildInputReports('src/app/Dockerfile', /FIFO/) };
    },
  },
  {
    name: 'build inputs: a .dockerignore with globs a config would refuse',
    build: (jail) => {
      // An unclosed [, an extglob and a brace bomb: config validation refuses them, but a
      // .dockerignore is matched as written (once an internal error from the glob compiler).
      const repo = baseRepo(jail, { 'pinwatch.yaml': IMAGE_CONFIG, 'src/app/Dockerfile': GO_DOCKERFILE, 'src/app/.dockerignore': `foo[abc\n@(x|y)\n${'{a,b}'.repeat(9)}\n` });
      write(repo, { 'src/app/main.go': 'package main\n// changed\n' });
      commitAll(repo, 'fix(app): change');
      return {
        repo,
        accounted: ['charts/app/values.yaml'],
        reports: [
          { args: ['affected', '--base', 'HEAD~1'], says: [/"image":"app"/] },
          { args: ['explain', 'app'], says: [/\.dockerignore/] },
        ],
      };
    },
  },
  {
    name: 'build inputs: go.mod a symlink to /dev/zero, .dockerignore a FIFO',
    build: (jail) => {
      const repo = baseRepo(jail, { 'pinwatch.yaml': IMAGE_CONFIG, 'src/app/Dockerfile': GO_DOCKERFILE });
      symlinkSync('/dev/zero', join(repo, 'src/app/go.mod'));
      write(repo, { 'src/app/main.go': 'package main\n// changed\n' });
      commitAll(repo, 'fix(app): change');
      execFileSync('mkfifo', [join(repo, 'src/app/.dockerignore')]);
      return {
        repo,
        accounted: ['charts/app/values.yaml'],
        // affected lists the image (the copied tree stays whole when Go narrowing cannot read go.mod); explain says why.
        reports: [
          ...buildInputReports('src/app/go.mod', /character device/, false),
          { args: ['explain', 'app'], says: [/src\/app\/\.dockerignore: a FIFO/] },
        ],
      };
    },
  },
  {
    name: 'outside git: a planted write journal naming files outside the tree',
    build: (jail) => {
      const repo = join(jail, 'repo');
      write(repo, { 'pinwatch.yaml': BASE_CONFIG, 'charts/app/values.yaml': `image: ghcr.io/acme/app:v1.0.0@${DIGEST('a')}\n` });
      const dead = Number(execFileSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }));
      const outside = join(jail, 'outside');
      const entry = (target: string, backup: string) => ({ file: 'charts/app/values.yaml', target, temp: `${backup}.tmp`, backup, oldHash: DIGEST('1'), newHash: DIGEST('2') });
      write(repo, {
        '.pinwatch/journal.json': JSON.stringify({
          version: 1,
          pid: dead,
          state: 'committing',
          entries: [entry(join(outside, 'secret.yaml'), join(outside, 'secret.yaml')), entry(join(repo, 'charts/app/values.yaml'), join(outside, `.secret.yaml.pinwatch-${dead}-0.bak`))],
        }),
      });
      writeFileSync(join(outside, `.secret.yaml.pinwatch-${dead}-0.bak`), 'a backup outside the tree\n');
      return { repo, accounted: ['charts/app/values.yaml'], reports: [{ args: ['scan', '--format', 'json'], says: [/interrupted-write-journal-unreadable/, /not one pinwatch wrote/] }] };
    },
  },
  {
    name: 'outside git: the write journal is a FIFO',
    build: (jail) => {
      const repo = join(jail, 'repo');
      write(repo, { 'pinwatch.yaml': BASE_CONFIG, 'charts/app/values.yaml': `image: ghcr.io/acme/app:v1.0.0@${DIGEST('a')}\n` });
      mkdirSync(join(repo, '.pinwatch'));
      execFileSync('mkfifo', [join(repo, '.pinwatch/journal.json')]);
      return { repo, accounted: ['charts/app/values.yaml'], reports: [{ args: ['scan', '--format', 'json'], says: [/interrupted-write-journal-unreadable/, /FIFO/] }] };
    },
  },
  {
    name: 'hostile pinwatch.yaml: symlink to the environment',
    build: (jail) => {
      const repo = baseRepo(jail, { 'pinwatch.yaml': BASE_CONFIG });
      execFileSync('rm', [join(repo, 'pinwatch.yaml')]);
      symlinkSync('/proc/self/environ', join(repo, 'pinwatch.yaml'));
      return { repo };
    },
  },
  {
    name: 'hostile pinwatch.yaml: paths that leave the repository',
    build: (jail) => ({
      repo: baseRepo(jail, {
        'pinwatch.yaml': `${BASE_CONFIG}baseline: ../outside/secret.yaml\nextraFiles:\n  - linked/values.yaml\n`,
      }),
    }),
  },
  {
    name: 'hostile pinwatch.yaml: extraFiles through a symlinked directory',
    build: (jail) => {
      const repo = baseRepo(jail, { 'pinwatch.yaml': `${BASE_CONFIG}extraFiles:\n  - linked/secret.yaml\n` });
      symlinkSync(join(jail, 'outside'), join(repo, 'linked'));
      return { repo };
    },
  },
  {
    name: 'hostile pinwatch.yaml: ReDoS globs and unknown rules',
    build: (jail) => {
      const repo = baseRepo(jail, { 'pinwatch.yaml': `${BASE_CONFIG}include:\n  - "**/*a*a*a*a*a*ab"\n  - "**/values-*-*-*-*-*.yaml"\n` });
      write(repo, { [`charts/${'a'.repeat(200)}/values${'-'.repeat(200)}`]: 'x: 1\n' });
      commitAll(repo, 'long names');
      return { repo };
    },
  },
  {
    name: 'odd file names',
    build: (jail) => {
      const repo = baseRepo(jail);
      const names = ['charts/new\nline/values.yaml', 'charts/-rf/values.yaml', 'charts/--output=x/values.yaml', 'charts/sp ace/values.yaml', 'charts/quote"back\\slash/values.yaml', 'charts/tab\there/values.yaml', 'charts/é/values.yaml', `charts/esc${ESCAPES.slice(0, 12)}/values.yaml`];
      for (const n of names) write(repo, { [n]: `image: ghcr.io/acme/app:v1.0.0@${DIGEST('a')}\n` });
      const bad = Buffer.concat([Buffer.from(join(repo, 'charts/')), Buffer.from([0x62, 0xff, 0x61])]);
      mkdirSync(bad, { recursive: true });
      writeFileSync(Buffer.concat([bad, Buffer.from('/values.yaml')]), `image: ghcr.io/acme/app:v1.0.0@${DIGEST('a')}\n`);
      commitAll(repo, 'odd names');
      return { repo, accounted: names, minPins: names.length + 2 };
    },
  },
  {
    name: 'option-like refs and git refs',
    build: (jail) => {
      const repo = baseRepo(jail, {
        'charts/opt/values.yaml': 'image: --output=/tmp/pwned\nother:\n  image: "-c core.pager=touch /tmp/pwned"\nref: --upload-pack=touch\n',
      });
      // `git branch` refuses names starting with '-'; update-ref writes them (as a pushed ref would arrive).
      git(repo, ['update-ref', 'refs/heads/-dash-branch', 'HEAD']);
      git(repo, ['update-ref', 'refs/tags/--upload-pack=touch', 'HEAD']);
      git(repo, ['update-ref', 'refs/tags/v1.0.0', 'HEAD']);
      return { repo, accounted: ['charts/opt/values.yaml'] };
    },
  },
  {
    name: 'every control byte in subjects, bodies, paths and contents',
    build: (jail) => {
      const repo = baseRepo(jail);
      write(repo, { 'src/app/main.go': `package main\n// ${CONTROL_BYTES}\n` });
      commitRaw(repo, `fix(app): ${CONTROL_BYTES}${ESCAPES}\n\nbody ${CONTROL_BYTES}\x1e${'f'.repeat(40)}\x1f${'e'.repeat(40)}\n`);
      write(repo, { [`src/app/ctl${'\x01\x1b[2J\x7f'}.go`]: 'package main\n' });
      commitRaw(repo, `fix(app): a file with control bytes in its name ${ESCAPES}\n`);
      write(repo, { 'charts/app/values.yaml': `image: ghcr.io/acme/app:v1.0.0@${DIGEST('a')}\n# \x1e${'0'.repeat(40)}\x1f ${ESCAPES}\n` });
      commitRaw(repo, 'chore: a comment in the pin file\n');
      return { repo, accounted: ['charts/app/values.yaml'] };
    },
  },
  {
    name: 'shallow clone',
    build: (jail) => {
      const origin = baseRepo(join(jail, 'origin'));
      for (let i = 0; i < 4; i++) {
        write(origin, { 'src/app/main.go': `package main\n// ${i}\n` });
        commitAll(origin, `fix(app): change ${i}`);
      }
      const repo = join(jail, 'repo');
      execFileSync('git', ['clone', '-q', '--depth', '2', `file://${origin}`, repo]);
      return { repo, accounted: ['charts/app/values.yaml'] };
    },
  },
  {
    name: 'empty repository (no commit)',
    build: (jail) => {
      const repo = join(jail, 'repo');
      mkdirSync(repo, { recursive: true });
      git(repo, ['init', '-q', '-b', 'main']);
      write(repo, { 'pinwatch.yaml': BASE_CONFIG, 'charts/app/values.yaml': `image: ghcr.io/acme/app:v1.0.0@${DIGEST('a')}\n` });
      return { repo, accounted: ['charts/app/values.yaml'] };
    },
  },
  {
    name: 'submodule and worktree',
    build: (jail) => {
      const sub = baseRepo(join(jail, 'sub'));
      const main = baseRepo(join(jail, 'main'));
      git(main, ['-c', 'protocol.file.allow=always', 'submodule', 'add', '-q', sub, 'vendor/sub']);
      commitAll(main, 'add a submodule');
      const repo = join(jail, 'repo');
      git(main, ['worktree', 'add', '-q', repo, '-b', 'wt']);
      return { repo, accounted: ['charts/app/values.yaml'] };
    },
  },
];
