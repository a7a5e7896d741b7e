/**
 * Go source header reader: build constraints before the package clause, the
 * import declarations (single and grouped, named, dot and blank imports), and
 * `//go:embed` patterns. A small scanner, not a Go parser: it stops at the first
 * top-level declaration after the imports.
 */

export interface GoSourceInfo {
  packageName?: string;
  imports: string[];
  /** False when a build constraint can never hold (`//go:build ignore`). */
  buildable: boolean;
  /** The constraint line that made the file unbuildable. */
  constraint?: string;
  /** The file's build constraint, when it has one (`buildableWith` evaluates it for a build's tags). */
  constraintLine?: string;
  /** `//go:embed` patterns, relative to the file's directory. */
  embeds: string[];
}

type Tri = true | false | undefined;

function not(a: Tri): Tri {
  return a === undefined ? undefined : !a;
}
function and(a: Tri, b: Tri): Tri {
  if (a === false || b === false) return false;
  return a === true && b === true ? true : undefined;
}
function or(a: Tri, b: Tri): Tri {
  if (a === true || b === true) return true;
  return a === false && b === false ? false : undefined;
}

/** A tag's value when building an image: `ignore` is never set; everything else is unknown. */
function tagValue(tag: string): Tri {
  return tag === 'ignore' ? false : undefined;
}

/** Tags the target platform or toolchain sets (GOOS, GOARCH, `unix`, `cgo`, the compiler, `-race`…, `goexperiment.*`): unknown whatever `-tags` says. */
const PLATFORM_TAG = /^(?:aix|android|darwin|dragonfly|freebsd|hurd|illumos|ios|js|linux|nacl|netbsd|openbsd|plan9|solaris|wasip1|windows|zos|386|amd64|amd64p32|arm|armbe|arm64|arm64be|loong64|mips|mipsle|mips64|mips64le|mips64p32|mips64p32le|ppc|ppc64|ppc64le|riscv|riscv64|s390|s390x|sparc|sparc64|wasm|unix|cgo|gc|gccgo|race|msan|asan|boringcrypto|goexperiment\..+)$/;

/**
 * A tag's value for a build whose `-tags` are known (`tags`): one it sets holds, a Go release
 * tag (`go1.21`) holds, a platform or toolchain tag is unknown, `ignore` and any other tag do not hold
 * (rekor's `//go:build e2e` files are not compiled by `go build ./cmd/rekor-server`).
 */
function tagValueFor(tags: ReadonlySet<string>): (tag: string) => Tri {
  return (tag) => (tag === 'ignore' ? false : tags.has(tag) || /^go1\.\d+$/.test(tag) ? true : PLATFORM_TAG.test(tag) ? undefined : false);
}

/** Evaluate a `//go:build` expression in three-valued logic (`value`: each tag's; default: only `ignore` is known). */
export function evalGoBuild(expr: string, value: (tag: string) => Tri = tagValue): Tri {
  const tokens = expr.match(/&&|\|\||!|\(|\)|[A-Za-z0-9_.]+/g) ?? [];
  let pos = 0;
  const parseOr = (): Tri => {
    let v = parseAnd();
    while (tokens[pos] === '||') {
      pos++;
      v = or(v, parseAnd());
    }
    return v;
  };
  const parseAnd = (): Tri => {
    let v = parseNot();
    while (tokens[pos] === '&&') {
      pos++;
      v = and(v, parseNot());
    }
    return v;
  };
  const parseNot = (): Tri => {
    const t = tokens[pos++];
    if (t === '!') return not(parseNot());
    if (t === '(') {
      const v = parseOr();
      if (tokens[pos] === ')') pos++;
      return v;
    }
    return t === undefined ? undefined : value(t);
  };
  return parseOr();
}

/** Evaluate `// +build` lines: lines are ANDed, space-separated terms ORed, commas ANDed. */
export function evalPlusBuild(lines: string[], value: (tag: string) => Tri = tagValue): Tri {
  let all: Tri = true;
  for (const line of lines) {
    let any: Tri = false;
    for (const term of line.trim().split(/\s+/).filter(Boolean)) {
      let conj: Tri = true;
      for (const atom of term.split(',')) conj = and(conj, atom.startsWith('!') ? not(value(atom.slice(1))) : value(atom));
      any = or(any, conj);
    }
    all = and(all, any);
  }
  return all;
}

/** Header comments before `package`: the constraint lines. */
function headerConstraints(text: string): { goBuild?: string; plusBuild: string[] } {
  const pkg = /^package\s/m.exec(text);
  const header = pkg ? text.slice(0, pkg.index) : text;
  const goBuild = /^\/\/go:build\s+(.*)$/m.exec(header)?.[1];
  const plusBuild = [...header.matchAll(/^\/\/\s*\+build\s+(.*)$/gm)].map((m) => m[1]!);
  return { goBuild: goBuild?.trim(), plusBuild };
}

const TOKEN = /\s+|\/\/[^\n]*|\/\*[\s\S]*?\*\/|"(?:[^"\\\n]|\\.)*"|`[^`]*`|[A-Za-z_][A-Za-z0-9_]*|./gy;

/** Tokens of the file, comments and whitespace dropped, up to the first non-import declaration. */
function headerTokens(text: string): string[] {
  const out: string[] = [];
  TOKEN.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = TOKEN.exec(text))) {
    const t = m[0];
    if (/^\s/.test(t) || t.startsWith('//') || t.startsWith('/*')) continue;
    if (['func', 'var', 'const', 'type'].includes(t)) break;
    out.push(t);
  }
  return out;
}

function stringValue(t: string | undefined): string | undefined {
  if (!t) return undefined;
  if (t.startsWith('`')) return t.slice(1, -1);
  if (t.startsWith('"')) {
    try {
      return JSON.parse(t) as string;
    } catch {
      return t.slice(1, -1);
    }
  }
  return undefined;
}

function parseImports(tokens: string[]): { packageName?: string; imports: string[] } {
  const imports: string[] = [];
  let packageName: string | undefined;
  let i = 0;
  const spec = () => {
    if (tokens[i] !== undefined && !tokens[i]!.startsWith('"') && !tokens[i]!.startsWith('`')) i++; // name, `.` or `_`
    const v = stringValue(tokens[i]);
    if (v !== undefined) {
      imports.push(v);
      i++;
    }
  };
  while (i < tokens.length) {
    const t = tokens[i++];
    if (t === 'package') packageName = tokens[i++];
    else if (t === 'import') {
      if (tokens[i] === '(') {
        i++;
        while (i < tokens.length && tokens[i] !== ')') {
          if (tokens[i] === ';') {
            i++;
            continue;
          }
          const before = i;
          spec();
          if (i === before) i++;
        }
        i++;
      } else spec();
    }
  }
  return { packageName, imports: imports.filter((p) => p !== 'C') };
}

function embedPatterns(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/^\s*\/\/go:embed\s+(.*)$/gm)) {
    for (const w of m[1]!.match(/"(?:[^"\\]|\\.)*"|`[^`]*`|\S+/g) ?? []) out.push(stringValue(w) ?? w);
  }
  return out;
}

export function readGoSource(text: string): GoSourceInfo {
  const { goBuild, plusBuild } = headerConstraints(text);
  const verdict = goBuild !== undefined ? evalGoBuild(goBuild) : plusBuild.length > 0 ? evalPlusBuild(plusBuild) : true;
  const { packageName, imports } = parseImports(headerTokens(text));
  const constraintLine = goBuild !== undefined ? `//go:build ${goBuild}` : plusBuild.length > 0 ? plusBuild.map((l) => `// +build ${l}`).join('\n') : undefined;
  return {
    packageName,
    imports,
    buildable: verdict !== false,
    constraint: verdict === false ? (goBuild !== undefined ? `//go:build ${goBuild}` : `// +build ${plusBuild.join(' ')}`) : undefined,
    ...(constraintLine !== undefined ? { constraintLine } : {}),
    embeds: embedPatterns(text),
  };
}

/**
 * Whether a build that sets exactly the custom tags `tags` (its `-tags`; undefined: not known) may
 * compile the file: false when its constraint cannot hold then (tagValueFor).
 */
export function buildableWith(info: GoSourceInfo, tags: ReadonlySet<string> | undefined): boolean {
  if (!info.buildable) return false;
  if (tags === undefined || info.constraintLine === undefined) return true;
  const value = tagValueFor(tags);
  const goBuild = /^\/\/go:build (.*)$/.exec(info.constraintLine)?.[1];
  const verdict = goBuild !== undefined ? evalGoBuild(goBuild, value) : evalPlusBuild(info.constraintLine.split('\n').map((l) => l.replace(/^\/\/ \+build /, '')), value);
  return verdict !== false;
}
