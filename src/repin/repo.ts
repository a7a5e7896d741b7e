/**
 * `repin`: move every pin of one repository (and every key stamped with it in
 * lockstep) to a new ref, with byte-minimal, re-parsed edits, written
 * atomically, then prove it by scanning wider than it rewrote.
 */
import { join } from 'node:path';
import type { Config } from '../config/types.js';
import { imagesFromPins } from '../images/images.js';
import { canonicalRepository, firstPartyPrefixes } from '../config/aliases.js';
import { isFirstParty, type Pin } from '../model/index.js';
import type { BuildModel } from '../producers/index.js';
import type { BuildInputs } from '../sources/types.js';
import type { RegistryClientOptions } from '../registry/index.js';
import { RegistryClient } from '../registry/index.js';
import { PinwatchError } from '../errors.js';
import { encodeText, readTextFile, scanRepo } from '../scan/index.js';
import { RECOVERY_CODES, writeFilesTogether } from '../journal/index.js';
import { containedPath } from '../util/repo-path.js';
import { checkForward } from './forward.js';
import { planRepin } from './plan.js';
import { renderFile } from './render.js';
import { rescanLeftovers, textLeftovers } from './sweep.js';
import { resolveRepository, resolveTarget } from './target.js';
import type { FileEdit, Leftover, RepinResult } from './types.js';

export interface RepinOptions {
  root: string;
  config: Config;
  /** Repository, full ref, or configured image name. */
  image: string;
  to?: string;
  toTag?: string;
  dryRun?: boolean;
  onlyForward?: boolean;
  /** Producers, for lockstep keys; without it only the repository's own pins move. */
  buildModel?: BuildModel;
  registry?: RegistryClientOptions;
}

export async function repin(opts: RepinOptions): Promise<RepinResult> {
  const scan = await scanRepo(opts.root, opts.config);
  const repository = resolveRepository(opts.image, opts.config, scan.pins);
  const registryOpts: RegistryClientOptions = { insecureRegistries: opts.config.insecureRegistries, ...opts.registry };
  let client: RegistryClient | undefined;
  const getClient = () => (client ??= new RegistryClient(registryOpts));
  const sameImage = (r: string) => r === repository || (r !== '' && canonicalRepository(r, opts.config.aliases) === repository);
  const target = await resolveTarget({ repository, to: opts.to, toTag: opts.toTag, client: getClient, aliases: opts.config.aliases });
  const texts = new Map<string, string>();
  const textOf = (file: string) => {
    if (!texts.has(file)) {
      // Decode exactly as the scan did, so the pins' spans index the same text.
      const read = readTextFile(join(opts.root, file), file);
      if ('skipped' in read) throw new PinwatchError('repin-unreadable', `${file} can no longer be read: ${read.skipped.reason}`, { file });
      texts.set(file, read.text);
    }
    return texts.get(file)!;
  };
  const plan = planRepin(scan.pins, textOf, target, opts.buildModel, opts.config.aliases);
  for (const note of scan.problems.filter((p) => RECOVERY_CODES.has(p.code))) {
    plan.problems.push({ file: note.file, code: note.code, reason: note.reason, blocking: false });
  }
  for (const skipped of scan.skipped.filter((f) => !f.scraped)) {
    plan.problems.push({ file: skipped.file, code: `not-read:${skipped.code}`, reason: `${skipped.file} was not read (${skipped.reason}); a pin in it would not be moved`, blocking: false });
  }
  const result: RepinResult = {
    repository,
    target,
    oldDigests: plan.oldDigests,
    changes: plan.changes,
    files: [],
    problems: plan.problems,
    leftovers: [],
    dryRun: opts.dryRun === true,
    written: false,
  };
  if (opts.onlyForward) {
    const pins = scan.pins.filter((p) => sameImage(p.ref.name));
    const inputs = await inputsOf(opts.root, opts.config, pins, opts.buildModel);
    result.forward = await checkForward(opts.root, target, pins, plan.oldDigests, { config: opts.config, registry: { opts: { ...registryOpts, client: getClient() } }, ...(inputs ? { inputs } : {}) });
    if (!result.forward.ok) return result;
  }
  if (plan.problems.some((p) => p.blocking)) return result;

  const firstParty = (r: string) => isFirstParty(r, firstPartyPrefixes(opts.config));
  const files: FileEdit[] = [];
  for (const [file, entry] of [...plan.edits].sort(([a], [b]) => (a < b ? -1 : 1))) {
    files.push(renderFile(file, textOf(file), entry.pins, entry.edits, target, plan.oldDigests, firstParty, sameImage));
  }
  result.files = files;
  const sweep = { root: opts.root, config: opts.config, repository, oldDigests: plan.oldDigests };
  if (opts.dryRun) {
    const overlay = new Map(files.map((f) => [f.file, f.after]));
    result.leftovers = await textLeftovers({ ...sweep, overlay }, scan.pins, []);
    return result;
  }
  const writes = files.map((f) => {
    // a file reached through a symlinked folder leading out of the repository is never written
    const path = containedPath(opts.root, f.file, 'the file');
    const now = readTextFile(path, f.file);
    if (!('text' in now) || now.text !== f.before) {
      throw new PinwatchError('repin-file-changed', `${f.file} changed on disk while repin was planning; nothing was written, run repin again`, { file: f.file });
    }
    // in the encoding it was read in: a Latin-1 file is written back in Latin-1, byte for byte
    return { file: f.file, path, data: encodeText(f.after, now, f.file) };
  });
  // all or nothing: journaled under the git dir, recovered by the next run if killed (journal/journal.ts)
  await writeFilesTogether(opts.root, writes);
  result.written = files.length > 0;
  const rescan = await rescanLeftovers(sweep);
  const leftovers: Leftover[] = [...rescan.leftovers];
  leftovers.push(...(await textLeftovers(sweep, rescan.pins, leftovers)));
  result.leftovers = leftovers;
  return result;
}

/** The repository's build inputs as stale derives them (first-party images only), for --only-forward. */
async function inputsOf(root: string, config: Config, pins: Pin[], model: BuildModel | undefined): Promise<BuildInputs | undefined> {
  const known = await imagesFromPins(root, config, pins, model);
  return known.images[0]?.inputs;
}

/** 0 when everything moved and nothing was left behind; 1 otherwise. */
export function repinExitCode(r: RepinResult): number {
  if (r.forward && !r.forward.ok) return 1;
  if (r.problems.some((p) => p.blocking)) return 1;
  return r.leftovers.length > 0 ? 1 : 0;
}
