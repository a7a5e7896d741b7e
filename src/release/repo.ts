/**
 * The release operations at repository level: `promote` (plan every destination
 * tag against the registry, refuse on conflict or doubt, tag, verify, move
 * mutable tags by the semver rule, optionally rewrite the tag strings), `mirror`
 * (copy every first-party image under one prefix to another by digest, verify,
 * optionally rewrite every pin in every shape, then prove it by a rescan and a
 * plain text search) and `compare` (the promotion verifier, over the overlay
 * engine). Rewrites are byte-minimal, re-parsed and written all-or-nothing
 * through the journal, and only after every registry write was verified.
 */
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { createTwoFilesPatch } from 'diff';
import { collectFile } from '../collect/index.js';
import type { Config } from '../config/types.js';
import { applySpans, editYaml, type SpanEdit } from '../edit/index.js';
import { PinwatchError } from '../errors.js';
import { RECOVERY_CODES, writeFilesTogether } from '../journal/index.js';
import { isFirstParty, type Pin, type Problem } from '../model/index.js';
import { runOverlay } from '../overlay/index.js';
import { parseReference } from '../reference/index.js';
import {
  copyImage,
  manifestDigestIfPresent,
  putManifest,
  RegistryClient,
  RegistryError,
  verifyImage,
  type CopyOptions,
  type RegistryClientOptions,
  type RepositoryAddress,
} from '../registry/index.js';
import { kindOfPins, listFiles, readSmallText } from '../repin/index.js';
import { collectRead, encodeText, readTextFile, scanRepo, type ScanResult } from '../scan/index.js';
import { containedPath } from '../util/repo-path.js';
import { readRegularFile } from '../util/safe-read.js';
import { highestSemver, isUnder, mapPrefix, mergeEdits, normalisePrefix, pinDifferences, renamePin, retagPin, type PinEdit } from './engine.js';
import type {
  CompareFile,
  CompareResult,
  CompareStatus,
  MirrorImage,
  MirrorResult,
  MoveResult,
  PromoteImage,
  PromoteResult,
  RefChange,
  Remaining,
  RewriteFile,
  RewriteResult,
} from './types.js';

export interface ReleaseBase {
  root: string;
  config: Config;
  dryRun?: boolean;
  rewrite?: boolean;
  registry?: RegistryClientOptions;
  /** A client to use instead of one built from `registry` (tests, benches). */
  client?: RegistryClient;
}

function address(repository: string): RepositoryAddress {
  const slash = repository.indexOf('/');
  return { domain: repository.slice(0, slash), path: repository.slice(slash + 1) };
}

const where = (p: Pin) => `${p.file}:${p.line}${p.keyPath ? ` (${p.keyPath})` : ''}`;

function clientFor(base: ReleaseBase): RegistryClient {
  return base.client ?? new RegistryClient({ insecureRegistries: base.config.insecureRegistries, ...base.registry });
}

function describeError(e: unknown): string {
  if (e instanceof PinwatchError) return `[${e.code}] ${e.message}`;
  return e instanceof Error ? e.message : String(e);
}

/** Notes from the scan that a release report must carry (files not read, recovered writes). */
function scanNotes(scan: ScanResult): Problem[] {
  const out: Problem[] = [];
  for (const note of scan.problems.filter((p) => RECOVERY_CODES.has(p.code))) out.push({ file: note.file, code: note.code, reason: note.reason, blocking: false });
  for (const skipped of scan.skipped.filter((f) => !f.scraped)) {
    out.push({ file: skipped.file, code: `not-read:${skipped.code}`, reason: `${skipped.file} was not read (${skipped.reason}); a pin in it would not be seen`, blocking: false });
  }
  return out;
}

/** The first-party repositories pinned in the tree, each with its pins (complete pins only). */
function firstPartyGroups(pins: readonly Pin[], config: Config, keep: (name: string) => boolean = () => true): Map<string, Pin[]> {
  const groups = new Map<string, Pin[]>();
  for (const p of pins) {
    if (p.incomplete || !p.ref.name || !isFirstParty(p.ref.name, config.firstParty) || !keep(p.ref.name)) continue;
    const list = groups.get(p.ref.name) ?? [];
    list.push(p);
    groups.set(p.ref.name, list);
  }
  return new Map([...groups].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** Why a repository's pins cannot be acted on by digest, or its one digest. */
function oneDigest(pins: Pin[]): { digest: string } | { reason: string } {
  const without = pins.filter((p) => p.ref.digest === undefined);
  if (without.length > 0) {
    const shown = without.slice(0, 3).map((p) => `${where(p)} ${p.raw}`);
    return { reason: `pinned without a digest at ${shown.join('; ')}${without.length > 3 ? `; and ${without.length - 3} more` : ''}: a tag names no bytes, so there is nothing to act on by digest; pin it by digest first` };
  }
  const digests = [...new Set(pins.map((p) => p.ref.digest!))];
  if (digests.length > 1) {
    const per = digests.map((d) => `${d.slice(0, 19)}… at ${pins.filter((p) => p.ref.digest === d).slice(0, 2).map(where).join(', ')}`);
    return { reason: `pinned at ${digests.length} digests (${per.join('; ')}): which one to release is not decidable; repin it to one digest first` };
  }
  return { digest: digests[0]! };
}

/** Run `task` over `items` with at most `limit` at once, keeping order. */
async function mapLimit<T, R>(items: readonly T[], limit: number, task: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    for (;;) {
      const i = next++;
      if (i >= items.length) return;
      out[i] = await task(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
  return out;
}

// ---------------------------------------------------------------- rewrite

interface RewritePlan {
  /** The edit for one pin, or why it cannot be made; undefined: leave the pin alone. */
  edit: (text: string, pin: Pin) => PinEdit | string | undefined;
  /** The check on the re-collected file: a message when a pin reads back wrong. */
  readBack: (before: Pin, after: Pin | undefined) => string | undefined;
  /** Pins still naming the old value after the rewrite (the rescan postcondition). */
  stillOld: (pin: Pin) => boolean;
  /** Plain text that must be gone outside the scanned pins (the source prefix), if any. */
  text?: string;
}

function textOfFile(root: string, file: string, cache: Map<string, ReturnType<typeof readTextFile>>) {
  let read = cache.get(file);
  if (!read) {
    read = readTextFile(join(root, file), file);
    cache.set(file, read);
  }
  if ('skipped' in read) throw new PinwatchError('repin-unreadable', `${file} can no longer be read: ${read.skipped.reason}`, { file });
  return read;
}

/**
 * Plan, prove and (unless dry-run) write a rewrite of `pins`. Every file is edited
 * byte-minimally (YAML through the edit engine, which re-parses each scalar), then
 * collected again: the same number of pins, and every edited pin reads back as
 * planned. Any problem stops every write.
 */
async function rewritePins(root: string, config: Config, scan: ScanResult, pins: Pin[], plan: RewritePlan, dryRun: boolean): Promise<RewriteResult> {
  const result: RewriteResult = { changes: [], files: [], problems: [], written: false, remaining: [] };
  const reads = new Map<string, ReturnType<typeof readTextFile>>();
  const perFile = new Map<string, { pins: Pin[]; edits: SpanEdit[] }>();
  for (const pin of pins) {
    const read = textOfFile(root, pin.file, reads) as { text: string };
    const r = plan.edit(read.text, pin);
    if (r === undefined) continue;
    if (typeof r === 'string') {
      result.problems.push({ file: pin.file, line: pin.line, code: 'pin-not-rewritable', reason: `${where(pin)}: ${r}`, blocking: true });
      continue;
    }
    if (r.edits.length === 0) continue;
    const entry = perFile.get(pin.file) ?? { pins: [], edits: [] };
    entry.pins.push(pin);
    entry.edits.push(...r.edits);
    perFile.set(pin.file, entry);
    const change: RefChange = { file: pin.file, line: pin.line, shape: pin.shape, from: r.from, to: r.to };
    if (pin.keyPath) change.keyPath = pin.keyPath;
    result.changes.push(change);
  }
  const firstParty = (r: string) => isFirstParty(r, config.firstParty);
  const overlay = new Map<string, string>();
  const newPins = new Map<string, Pin[]>();
  for (const [file, entry] of [...perFile].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const read = textOfFile(root, file, reads) as { text: string };
    const merged = mergeEdits(entry.edits);
    if (typeof merged === 'string') {
      result.problems.push({ file, code: 'pin-not-rewritable', reason: `${file}: ${merged}`, blocking: true });
      continue;
    }
    const kind = kindOfPins(entry.pins);
    const scraped = entry.pins.some((p) => p.scraped);
    let after: string;
    try {
      after = kind === 'yaml' && !scraped ? editYaml(read.text, merged, file).text : applySpans(read.text, merged, file);
    } catch (e) {
      result.problems.push({ file, code: 'pin-not-rewritable', reason: `${file}: ${describeError(e)}`, blocking: true });
      continue;
    }
    const beforePins = scan.pins.filter((p) => p.file === file);
    const collected = collectFile(kind, after, { file, isFirstParty: firstParty }).pins;
    const order = (ps: readonly Pin[]) => [...ps].sort((a, b) => Math.min(...a.spans.map((s) => s.start)) - Math.min(...b.spans.map((s) => s.start)));
    const a = order(beforePins);
    const b = order(collected);
    if (a.length !== b.length) {
      result.problems.push({ file, code: 'rewrite-verify', reason: `${file}: after the edit it holds ${b.length} pin(s), before ${a.length}; not writing`, blocking: true });
      continue;
    }
    let bad: string | undefined;
    a.forEach((p, i) => {
      if (bad) return;
      bad = entry.pins.includes(p) ? plan.readBack(p, b[i]) : b[i]!.raw !== p.raw ? `${where(p)} changed (${p.raw} → ${b[i]!.raw}) though it was not to be edited` : undefined;
    });
    if (bad) {
      result.problems.push({ file, code: 'rewrite-verify', reason: `${file}: ${bad}; not writing`, blocking: true });
      continue;
    }
    overlay.set(file, after);
    newPins.set(file, collected);
    result.files.push({ file, before: read.text, after, diff: createTwoFilesPatch(`a/${file}`, `b/${file}`, read.text, after, undefined, undefined, { context: 3 }) });
  }
  if (result.problems.some((p) => p.blocking)) return result;
  let pinsAfter: Pin[];
  if (!dryRun && result.files.length > 0) {
    const writes = result.files.map((f: RewriteFile) => {
      const path = containedPath(root, f.file, 'the file');
      const now = readTextFile(path, f.file);
      if (!('text' in now) || now.text !== f.before) {
        throw new PinwatchError('repin-file-changed', `${f.file} changed on disk while pinwatch was planning; nothing was written, run it again`, { file: f.file });
      }
      return { file: f.file, path, data: encodeText(f.after, now, f.file) };
    });
    await writeFilesTogether(root, writes);
    result.written = true;
    pinsAfter = (await scanRepo(root, config)).pins;
  } else {
    pinsAfter = [...scan.pins.filter((p) => !newPins.has(p.file)), ...[...newPins.values()].flat()];
  }
  result.remaining = await remainingAfter(root, pinsAfter, plan, dryRun ? overlay : undefined);
  return result;
}

/** The postcondition: rescanned pins still old, and plain text naming `plan.text` outside every scanned pin's line. */
async function remainingAfter(root: string, pins: Pin[], plan: RewritePlan, overlay?: Map<string, string>): Promise<Remaining[]> {
  const out: Remaining[] = pins.filter(plan.stillOld).map((p) => ({ file: p.file, line: p.line, text: p.raw, kind: 'pin' }));
  const needle = plan.text;
  if (!needle) return out;
  const pinLines = new Set(pins.map((p) => `${p.file}:${p.line}`));
  for (const file of await listFiles(root)) {
    const plain = overlay?.get(file) ?? readSmallText(join(root, file));
    const gz = plain === undefined ? gzipText(join(root, file)) : undefined;
    const text = plain ?? gz;
    if (text === undefined || !text.includes(needle)) continue;
    text.split('\n').forEach((line, i) => {
      if (!line.includes(needle) || (gz === undefined && pinLines.has(`${file}:${i + 1}`))) return;
      if (out.some((r) => r.file === file && r.line === i + 1)) return;
      out.push({ file, line: i + 1, text: `${gz === undefined ? '' : '(inside the gzip) '}${line.trim().slice(0, 200)}`, kind: 'text' });
    });
  }
  return out;
}

/** A gzip file's text (a chart ships `components.gz` built from a manifest), so the text search sees inside it; undefined otherwise. */
function gzipText(abs: string): string | undefined {
  const read = readRegularFile(abs, { maxBytes: 16 * 1024 * 1024, followSymlinks: true });
  if ('refused' in read || read.bytes.length < 2 || read.bytes[0] !== 0x1f || read.bytes[1] !== 0x8b) return undefined;
  try {
    const out = gunzipSync(read.bytes, { maxOutputLength: 64 * 1024 * 1024 });
    return out.includes(0) ? undefined : out.toString('utf8');
  } catch {
    return undefined;
  }
}

// ---------------------------------------------------------------- promote

export interface PromoteOptions extends ReleaseBase {
  tag: string;
  /** With `rewrite`: only pins whose stored tag is this one (the release candidate's) are rewritten; others keep theirs, noted. */
  fromTag?: string;
  move?: string[];
  forceMove?: boolean;
  /** Parallel registry requests while planning (the client's own limit applies too; default 8). */
  concurrency?: number;
}

function checkTag(tag: string, flag: string): void {
  if (!/^[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}$/.test(tag)) {
    throw new PinwatchError('invalid-release-tag', `${flag} ${JSON.stringify(tag)} is not a valid tag: 1-128 characters of [A-Za-z0-9_.-], not starting with . or -; like ${flag} v1.2.0`);
  }
}

export async function promote(opts: PromoteOptions): Promise<PromoteResult> {
  checkTag(opts.tag, '--tag');
  if (opts.fromTag !== undefined) checkTag(opts.fromTag, '--from-tag');
  for (const m of opts.move ?? []) {
    checkTag(m, '--move');
    if (m === opts.tag) throw new PinwatchError('conflicting-options', `--move ${m} is the release tag itself; --move names mutable tags like latest`);
  }
  const scan = await scanRepo(opts.root, opts.config);
  const result: PromoteResult = { tag: opts.tag, dryRun: opts.dryRun === true, images: [], indeterminate: false, problems: scanNotes(scan) };
  const groups = firstPartyGroups(scan.pins, opts.config);
  if (groups.size === 0) {
    result.refused = `no first-party repository is pinned in the tree (firstParty: ${opts.config.firstParty.length ? opts.config.firstParty.join(', ') : 'none configured'}); nothing to promote`;
    return result;
  }
  const client = clientFor(opts);
  const images: PromoteImage[] = [...groups].map(([repository, pins]) => {
    const one = oneDigest(pins);
    const base = { repository, pins: pins.map(where) };
    if ('reason' in one) return { ...base, plan: 'not-promotable', action: 'skipped', reason: one.reason };
    return { ...base, digest: one.digest, plan: 'absent', action: 'skipped', reason: '' };
  });
  result.images = images;
  // 1. plan: only a 404 proves a tag absent
  await mapLimit(
    images.filter((i) => i.digest),
    opts.concurrency ?? 8,
    async (img) => {
      try {
        const existing = await manifestDigestIfPresent(client, address(img.repository), opts.tag);
        if (existing === undefined) {
          img.plan = 'absent';
        } else if (existing === img.digest) {
          img.plan = 'already';
          img.action = 'already';
          img.reason = `${opts.tag} already names ${img.digest}: nothing to do`;
        } else {
          img.plan = 'conflict';
          img.action = 'conflict';
          img.existing = existing;
          img.reason = `${opts.tag} already names ${existing}, not the pinned ${img.digest}: a release tag is write-once`;
        }
      } catch (e) {
        img.plan = 'indeterminate';
        img.reason = `whether ${opts.tag} exists could not be decided: ${describeError(e)}`;
      }
    },
  );
  const refuse = (why: string) => {
    result.refused = why;
    for (const img of images) {
      if (img.plan === 'absent') img.reason = `not tagged: ${why}`;
    }
    return result;
  };
  if (images.some((i) => i.plan === 'indeterminate')) {
    result.indeterminate = true;
    return refuse(`existence of ${opts.tag} could not be decided for ${images.filter((i) => i.plan === 'indeterminate').length} repository(ies); nothing was written`);
  }
  if (images.some((i) => i.plan === 'conflict')) return refuse(`${opts.tag} exists at another digest in ${images.filter((i) => i.plan === 'conflict').length} repository(ies); the whole promotion is refused, nothing was written`);
  if (images.some((i) => i.plan === 'not-promotable')) return refuse(`${images.filter((i) => i.plan === 'not-promotable').length} first-party repository(ies) are not pinned by one digest; the whole promotion is refused, nothing was written`);
  if (opts.dryRun) {
    for (const img of images) if (img.plan === 'absent') img.reason = `dry run: ${opts.tag} is absent and would be tagged ${img.digest}`;
  } else {
    // 2. apply, 3. verify
    await mapLimit(
      images.filter((i) => i.plan === 'absent'),
      opts.concurrency ?? 8,
      async (img) => {
        const repo = address(img.repository);
        try {
          const m = await client.getManifest(repo, img.digest!);
          await putManifest(client, repo, opts.tag, m.body, m.mediaType);
          const head = await client.headManifest(repo, opts.tag);
          if (head.digest !== img.digest) throw new PinwatchError('release-verify', `after tagging, ${img.repository}:${opts.tag} resolves to ${head.digest ?? 'no digest'}, not ${img.digest}`);
          img.action = 'tagged';
          img.reason = `tagged ${opts.tag} and verified it resolves to ${img.digest}`;
        } catch (e) {
          img.action = 'skipped';
          img.reason = `tagging failed: ${describeError(e)}`;
          result.problems.push({ code: 'promote-failed', reason: `${img.repository}: ${img.reason}`, blocking: true });
        }
      },
    );
  }
  // 4. mutable tags
  if ((opts.move ?? []).length > 0 && !result.problems.some((p) => p.blocking)) {
    await mapLimit(images, opts.concurrency ?? 8, async (img) => {
      img.moves = await moveTags(client, img, opts);
    });
  }
  if (result.problems.some((p) => p.blocking)) return result;
  // 5. rewrite the tag strings
  if (opts.rewrite) {
    const promoted = new Set(images.map((i) => i.repository));
    const pins = [...groups.values()].flat();
    result.rewrite = await rewritePins(
      opts.root,
      opts.config,
      scan,
      pins,
      {
        edit: (text, pin) => {
          if (opts.fromTag !== undefined && pin.ref.tag !== opts.fromTag) {
            if (pin.ref.tag !== undefined && pin.ref.tag !== opts.tag) {
              result.problems.push({ file: pin.file, line: pin.line, code: 'tag-kept', reason: `${where(pin)} keeps its tag ${pin.ref.tag} (not --from-tag ${opts.fromTag})`, blocking: false });
            }
            return undefined;
          }
          return retagPin(text, pin, opts.tag);
        },
        readBack: (before, after) => {
          if (!after) return `${where(before)} disappeared`;
          if (after.ref.digest !== before.ref.digest || after.ref.name !== before.ref.name) return `${where(before)} reads back as ${after.raw}`;
          if (before.ref.tag !== undefined && after.ref.tag !== opts.tag) return `${where(before)} reads back with tag ${after.ref.tag ?? '(none)'}, not ${opts.tag}`;
          return undefined;
        },
        stillOld: (p) => promoted.has(p.ref.name) && p.ref.tag !== undefined && (opts.fromTag !== undefined ? p.ref.tag === opts.fromTag : p.ref.tag !== opts.tag),
      },
      opts.dryRun === true,
    );
  }
  return result;
}

async function moveTags(client: RegistryClient, img: PromoteImage, opts: PromoteOptions): Promise<MoveResult[]> {
  const out: MoveResult[] = [];
  if (!img.digest) return (opts.move ?? []).map((tag) => ({ tag, action: 'skipped', reason: 'the repository is not pinned by one digest' }));
  const repo = address(img.repository);
  let rule: { ok: boolean; reason: string };
  if (opts.forceMove) rule = { ok: true, reason: '--force-move' };
  else {
    try {
      // a 404 (NAME_UNKNOWN) is the registry saying the repository has no tags yet
      const tags = await client.listTags(repo).catch((e: unknown) => {
        if (e instanceof RegistryError && e.status === 404) return [] as string[];
        throw e;
      });
      rule = highestSemver(opts.tag, opts.dryRun ? [...tags, opts.tag] : tags);
    } catch (e) {
      return (opts.move ?? []).map((tag) => ({ tag, action: 'skipped', reason: `the repository's tags could not be listed, so the semver rule cannot be applied: ${describeError(e)}` }));
    }
  }
  for (const tag of opts.move ?? []) {
    if (!rule.ok) {
      out.push({ tag, action: 'kept', reason: `not moved: ${rule.reason}` });
      continue;
    }
    try {
      const now = await manifestDigestIfPresent(client, repo, tag);
      if (now === img.digest) {
        out.push({ tag, action: 'already', reason: `${tag} already names ${img.digest}` });
        continue;
      }
      if (opts.dryRun) {
        out.push({ tag, action: 'moved', reason: `dry run: would move ${tag} from ${now ?? '(absent)'} to ${img.digest} (${rule.reason})` });
        continue;
      }
      const m = await client.getManifest(repo, img.digest);
      await putManifest(client, repo, tag, m.body, m.mediaType);
      const head = await client.headManifest(repo, tag);
      if (head.digest !== img.digest) throw new PinwatchError('release-verify', `after moving, ${img.repository}:${tag} resolves to ${head.digest ?? 'no digest'}`);
      out.push({ tag, action: 'moved', reason: `moved ${tag} from ${now ?? '(absent)'} to ${img.digest} (${rule.reason})` });
    } catch (e) {
      out.push({ tag, action: 'skipped', reason: `moving ${tag} failed: ${describeError(e)}` });
    }
  }
  return out;
}

/** 0 every image tagged or already; 1 refused (conflict, not promotable), a failed tag or move, or a rewrite problem/leftover; 2 indeterminate. */
export function promoteExitCode(r: PromoteResult): number {
  if (r.indeterminate) return 2;
  if (r.refused) return 1;
  if (r.problems.some((p) => p.blocking)) return 1;
  if (r.images.some((i) => i.moves?.some((m) => m.action === 'skipped'))) return 1;
  if (r.rewrite && (r.rewrite.problems.some((p) => p.blocking) || r.rewrite.remaining.length > 0)) return 1;
  return 0;
}

// ---------------------------------------------------------------- mirror

export interface MirrorOptions extends ReleaseBase {
  from: string;
  to: string;
  /** Tags to give every copy; default: the tags its pins store. */
  tags?: string[];
  referrers?: boolean;
  copy?: CopyOptions;
  concurrency?: number;
}

function checkPrefix(prefix: string, flag: string): string {
  const p = normalisePrefix(prefix);
  let ok = false;
  try {
    ok = p.includes('/') && parseReference(`${p}/x`).name === `${p}/x`;
  } catch {
    ok = false;
  }
  if (!ok) {
    throw new PinwatchError('invalid-mirror-prefix', `${flag} ${JSON.stringify(prefix)} is not a registry prefix written in full (host/path, as pins name it after normalisation); like ${flag} ghcr.io/acme`);
  }
  return p;
}

export async function mirror(opts: MirrorOptions): Promise<MirrorResult> {
  const from = checkPrefix(opts.from, '--from');
  const to = checkPrefix(opts.to, '--to');
  if (isUnder(to, from) || isUnder(from, to)) throw new PinwatchError('conflicting-options', `--from ${from} and --to ${to} overlap; mirror copies between two separate prefixes`);
  for (const t of opts.tags ?? []) checkTag(t, '--tag');
  const scan = await scanRepo(opts.root, opts.config);
  const result: MirrorResult = { from, to, dryRun: opts.dryRun === true, images: [], problems: scanNotes(scan) };
  const groups = firstPartyGroups(scan.pins, opts.config, (name) => isUnder(name, from));
  for (const p of scan.pins) {
    if (!p.incomplete && isUnder(p.ref.name, from) && !isFirstParty(p.ref.name, opts.config.firstParty)) {
      result.problems.push({ file: p.file, line: p.line, code: 'not-first-party', reason: `${where(p)} ${p.raw} is under ${from} but not first-party (firstParty in pinwatch.yaml): not mirrored, not rewritten`, blocking: false });
    }
  }
  if (groups.size === 0) {
    result.refused = `no first-party image is pinned under ${from}; nothing to mirror`;
    return result;
  }
  const images: MirrorImage[] = [...groups].map(([repository, pins]) => {
    const one = oneDigest(pins);
    const tags = opts.tags ?? [...new Set(pins.map((p) => p.ref.tag).filter((t): t is string => t !== undefined))].sort();
    const base = { repository, destination: mapPrefix(repository, from, to), tags, pins: pins.map(where) };
    if ('reason' in one) return { ...base, action: 'skipped', reason: one.reason };
    return { ...base, digest: one.digest, action: 'planned', reason: opts.dryRun ? 'dry run: would copy by digest (index, children, config, layers) and verify' : '' };
  });
  result.images = images;
  if (images.some((i) => i.action === 'skipped')) {
    result.refused = `${images.filter((i) => i.action === 'skipped').length} image(s) under ${from} are not pinned by one digest; nothing was copied or rewritten`;
    return result;
  }
  if (!opts.dryRun) {
    const client = clientFor(opts);
    await mapLimit(images, opts.concurrency ?? 4, async (img) => {
      const src = address(img.repository);
      const dst = address(img.destination);
      try {
        const present = await manifestDigestIfPresent(client, dst, img.digest!).catch(() => undefined);
        const stats = await copyImage(client, src, dst, img.digest!, img.tags, { ...opts.copy, referrers: opts.referrers });
        await verifyImage(client, dst, img.digest!);
        for (const tag of img.tags) {
          const head = await client.headManifest(dst, tag);
          if (head.digest !== img.digest) throw new PinwatchError('release-verify', `${img.destination}:${tag} resolves to ${head.digest ?? 'no digest'} after the copy, not ${img.digest}`);
        }
        img.stats = stats;
        img.action = present && stats.blobsCopied === 0 && stats.blobsMounted === 0 ? 'present' : 'copied';
        img.reason = `${img.action === 'present' ? 'already at the destination' : 'copied'} and verified: ${stats.manifests} manifest(s), ${stats.blobsCopied} blob(s) copied (${stats.bytesCopied} bytes), ${stats.blobsMounted} mounted, ${stats.blobsPresent} present${stats.referrers ? `, ${stats.referrers} referrer(s)` : ''}${img.tags.length ? `; tagged ${img.tags.join(', ')}` : ''}`;
      } catch (e) {
        img.action = 'failed';
        img.reason = `copy failed: ${describeError(e)}`;
      }
    });
    if (images.some((i) => i.action === 'failed')) {
      result.refused = `${images.filter((i) => i.action === 'failed').length} copy(ies) failed; the tree was not rewritten`;
      return result;
    }
  }
  if (opts.rewrite) {
    const mirrored = new Set(images.map((i) => i.repository));
    const pins = [...groups.values()].flat();
    result.rewrite = await rewritePins(
      opts.root,
      opts.config,
      scan,
      pins,
      {
        edit: (text, pin) => renamePin(text, pin, from, to),
        readBack: (before, after) => {
          if (!after) return `${where(before)} disappeared`;
          const want = mapPrefix(before.ref.name, from, to);
          if (after.ref.name !== want || after.ref.digest !== before.ref.digest || after.ref.tag !== before.ref.tag) return `${where(before)} reads back as ${after.raw}, expected ${want} with the same tag and digest`;
          return undefined;
        },
        stillOld: (p) => mirrored.has(p.ref.name),
        text: from,
      },
      opts.dryRun === true,
    );
  }
  return result;
}

/** 0 copied (and rewritten) with nothing left; 1 a copy failed, an image is not mirrorable, or the rewrite left something; 2 is for errors. */
export function mirrorExitCode(r: MirrorResult): number {
  if (r.refused) return 1;
  if (r.rewrite && (r.rewrite.problems.some((p) => p.blocking) || r.rewrite.remaining.some((x) => x.kind === 'pin'))) return 1;
  return 0;
}

// ---------------------------------------------------------------- compare

export interface CompareOptions {
  root: string;
  /** Absolute path of the other tree (before: an extracted artifact, another checkout). */
  from: string;
  config: Config;
}

export function emptyCompareSummary(): Record<CompareStatus, number> {
  return { same: 0, 'tags-only': 0, digests: 0, drift: 0, missing: 0, new: 0, failed: 0 };
}

export function compare(opts: CompareOptions): CompareResult {
  const overlay = runOverlay({ root: opts.root, from: opts.from, config: opts.config, skip: { built: [], touched: [], owned: [] }, dryRun: true, ignoreComments: false });
  const result: CompareResult = { from: opts.from, files: [], summary: emptyCompareSummary() };
  if (overlay.noArtifact) {
    result.noTree = overlay.noArtifact.replace('nothing to overlay; every file keeps its committed refs', 'nothing to compare');
    return result;
  }
  const firstParty = (r: string) => isFirstParty(r, opts.config.firstParty);
  for (const f of overlay.files) {
    let entry: CompareFile;
    switch (f.status) {
      case 'same':
        entry = { file: f.file, status: 'same', refs: [], drift: [] };
        break;
      case 'missing-in-artifact':
        entry = { file: f.file, status: 'new', reason: 'in the tree but not in --from', refs: [], drift: [] };
        break;
      case 'new-in-artifact':
        entry = { file: f.file, status: 'missing', reason: 'in --from but not in the tree', refs: [], drift: [] };
        break;
      case 'failed':
      case 'skipped':
        entry = { file: f.file, status: 'failed', reason: f.reason ?? 'could not be compared', refs: [], drift: [] };
        break;
      case 'drift': {
        const lines = (f.lines ?? []).map((l) => `${l.line !== undefined ? `line ${l.line}` : `--from line ${l.artifactLine}`}: ${l.committed !== undefined ? JSON.stringify(l.committed.trim()) : '(absent)'} vs ${l.artifact !== undefined ? JSON.stringify(l.artifact.trim()) : '(absent)'} (${l.kind})`);
        entry = { file: f.file, status: 'drift', reason: f.reason, refs: [], drift: [...(f.pinDrift ?? []), ...lines] };
        break;
      }
      default: {
        // overlaid: every difference is a ref; which part of the refs?
        const mine = readTextFile(join(opts.root, f.file), f.file);
        const theirs = readTextFile(join(opts.from, f.file), f.file);
        if ('skipped' in mine || 'skipped' in theirs || !f.kind) {
          entry = { file: f.file, status: 'failed', reason: 'a copy could not be read again', refs: [], drift: [] };
          break;
        }
        const a = collectRead(f.kind, mine, { file: f.file, isFirstParty: firstParty }).pins;
        const b = collectRead(f.kind, theirs, { file: f.file, isFirstParty: firstParty }).pins;
        const d = pinDifferences(a, b);
        entry = { file: f.file, status: d.status === 'same' ? 'tags-only' : d.status, refs: d.refs, drift: d.reasons.filter(() => d.status === 'drift') };
        if (d.status === 'digests') entry.reason = d.reasons.join('; ');
        if (d.status === 'drift') entry.reason = 'a repository differs (same digest): not a promotion';
      }
    }
    result.files.push(entry);
    result.summary[entry.status]++;
  }
  return result;
}

export interface CompareExitFlags {
  allowDigests?: boolean;
  allowDrift?: boolean;
}

/** 1 on `digests` or `drift` (unless allowed), or on a file only one side has or one that could not be compared; else 0. */
export function compareExitCode(r: CompareResult, flags: CompareExitFlags = {}): number {
  if (r.noTree) return 2;
  const s = r.summary;
  if (s.digests > 0 && !flags.allowDigests) return 1;
  if ((s.drift > 0 || s.missing > 0 || s.new > 0) && !flags.allowDrift) return 1;
  if (s.failed > 0) return 1;
  return 0;
}
