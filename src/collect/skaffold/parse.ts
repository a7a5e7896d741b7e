/**
 * The Skaffold config reader (pure, text in): the documents of a skaffold.yaml
 * (`apiVersion: skaffold/v2*|v3*|v4*`, several per file), their
 * `build.artifacts[]` (image, context, builder and its fields, requires), the
 * artifacts of `profiles[].build` (marked with the profile), and `requires[]`
 * (other config files). Shared by scan (artifact names are placeholders in
 * manifests) and producers/skaffold (artifacts as build recipes).
 */
import { isMap, isScalar, isSeq, LineCounter, type Node, type YAMLMap } from 'yaml';
import { parseYamlDocuments } from '../yaml/document.js';

export interface SkaffoldArtifact {
  /** The artifact's image name as written (`frontend`, `gcr.io/acme/frontend`). */
  image: string;
  line: number;
  /** Context directory relative to the file's directory (default `.`). */
  context: string;
  /** `docker` (the default), `kaniko`, `ko`, `jib`, `bazel`, `buildpacks`, `custom`. */
  builder: string;
  /** docker/kaniko: Dockerfile relative to the context (default `Dockerfile`). */
  dockerfile?: string;
  target?: string;
  buildArgs: Record<string, string>;
  ko?: { main?: string; dir?: string; fromImage?: string; ldflags: string[] };
  /** Other artifacts this one builds on (`requires: [{image, alias}]`). */
  requires: string[];
  /** Set for an artifact of `profiles[].build`. */
  profile?: string;
  /** `metadata.name` of its document, if any. */
  config?: string;
}

export interface SkaffoldRequire {
  /** `requires[].path`, relative to the file's directory. */
  path: string;
  line: number;
}

export interface SkaffoldProblem {
  line: number;
  code: string;
  reason: string;
}

export interface SkaffoldFile {
  /** True when at least one document is a Skaffold config. */
  isSkaffold: boolean;
  artifacts: SkaffoldArtifact[];
  requires: SkaffoldRequire[];
  problems: SkaffoldProblem[];
}

const BUILDERS = ['docker', 'kaniko', 'ko', 'jib', 'bazel', 'buildpacks', 'custom'] as const;

export function parseSkaffold(text: string): SkaffoldFile {
  const out: SkaffoldFile = { isSkaffold: false, artifacts: [], requires: [], problems: [] };
  const lc = new LineCounter();
  const lineOf = (n: unknown) => ((n as Node | undefined)?.range ? lc.linePos((n as Node).range![0]).line : 1);
  for (const doc of parseYamlDocuments(text, { lineCounter: lc, prettyErrors: false, uniqueKeys: false })) {
    if (doc.errors.length > 0) {
      out.problems.push({ line: lc.linePos(doc.errors[0]!.pos[0]).line, code: 'skaffold-yaml-error', reason: `not valid YAML, so its artifacts are not read: ${doc.errors[0]!.message.split('\n')[0]}` });
      continue;
    }
    const top = doc.contents;
    if (!isMap(top)) continue;
    const api: unknown = top.get('apiVersion');
    if (typeof api !== 'string' || !api.startsWith('skaffold/')) continue;
    out.isSkaffold = true;
    if (!/^skaffold\/v[234]/.test(api)) out.problems.push({ line: lineOf(top.get('apiVersion', true)), code: 'skaffold-version-unknown', reason: `apiVersion ${api} is not skaffold/v2*, v3* or v4*; read as v4` });
    const meta = top.get('metadata', true);
    const name: unknown = isMap(meta) ? meta.get('name') : undefined;
    const config = typeof name === 'string' ? name : undefined;
    readBuild(top.get('build', true), undefined);
    const profiles = top.get('profiles', true);
    if (isSeq(profiles)) {
      for (const p of profiles.items) {
        if (!isMap(p)) continue;
        const pname = String(p.get('name') ?? '?');
        readBuild(p.get('build', true), pname);
        const patches = p.get('patches', true);
        if (isSeq(patches)) {
          for (const patch of patches.items) {
            const at: unknown = isMap(patch) ? patch.get('path') : undefined;
            if (typeof at === 'string' && at.startsWith('/build')) {
              out.problems.push({ line: lineOf(patch), code: 'skaffold-profile-patch', reason: `profile ${pname} patches ${at}; the build it makes is not read (its artifacts are read as written without the profile)` });
            }
          }
        }
      }
    }
    const requires = top.get('requires', true);
    if (isSeq(requires)) {
      for (const r of requires.items) {
        const p = isMap(r) ? r.get('path', true) : undefined;
        if (isScalar(p) && typeof p.value === 'string') out.requires.push({ path: p.value, line: lineOf(p) });
        else if (isMap(r) && r.get('git', true)) out.problems.push({ line: lineOf(r), code: 'skaffold-require-remote', reason: 'requires a config from a git repository; its artifacts are not in this tree' });
      }
    }

    function readBuild(build: unknown, profile: string | undefined): void {
      if (!isMap(build)) return;
      const artifacts = build.get('artifacts', true);
      if (artifacts === undefined) return;
      if (!isSeq(artifacts)) {
        out.problems.push({ line: lineOf(artifacts), code: 'skaffold-artifact-unreadable', reason: 'build.artifacts is not a list' });
        return;
      }
      for (const a of artifacts.items) {
        const artifact = readArtifact(a, profile);
        if (artifact) out.artifacts.push(artifact);
      }
    }

    function readArtifact(node: unknown, profile: string | undefined): SkaffoldArtifact | undefined {
      if (!isMap(node)) {
        out.problems.push({ line: lineOf(node), code: 'skaffold-artifact-unreadable', reason: 'a build.artifacts entry is not a mapping' });
        return undefined;
      }
      const imageNode = node.get('image', true);
      if (!isScalar(imageNode) || typeof imageNode.value !== 'string' || imageNode.value === '') {
        out.problems.push({ line: lineOf(imageNode ?? node), code: 'skaffold-artifact-unreadable', reason: 'an artifact without an image name is not built' });
        return undefined;
      }
      const context = str(node, 'context') ?? '.';
      const builder = BUILDERS.find((b) => node.has(b)) ?? 'docker';
      const art: SkaffoldArtifact = { image: imageNode.value, line: lineOf(imageNode), context, builder, buildArgs: {}, requires: [], ...(profile ? { profile } : {}), ...(config ? { config } : {}) };
      if (builder === 'docker' || builder === 'kaniko') {
        const d = node.get(builder, true);
        if (isMap(d)) {
          const df = str(d, builder === 'kaniko' ? 'dockerfile' : 'dockerfile');
          if (df) art.dockerfile = df;
          const target = str(d, 'target');
          if (target) art.target = target;
          const args = d.get('buildArgs', true);
          if (isMap(args)) {
            for (const pair of args.items) {
              if (!isScalar(pair.key)) continue;
              const v = pair.value;
              if (isScalar(v) && v.value !== null) art.buildArgs[String(pair.key.value)] = String(v.value);
            }
          }
        }
      }
      if (builder === 'ko') {
        const k = node.get('ko', true);
        const ldNode = isMap(k) ? k.get('ldflags', true) : undefined;
        const ldflags = isSeq(ldNode) ? ldNode.items.filter(isScalar).map((s) => String(s.value)) : [];
        const main = isMap(k) ? str(k, 'main') : undefined;
        const dir = isMap(k) ? str(k, 'dir') : undefined;
        const fromImage = isMap(k) ? str(k, 'fromImage') : undefined;
        art.ko = { ldflags, ...(main ? { main } : {}), ...(dir ? { dir } : {}), ...(fromImage ? { fromImage } : {}) };
      }
      const req = node.get('requires', true);
      if (isSeq(req)) for (const r of req.items) if (isMap(r) && typeof r.get('image') === 'string') art.requires.push(r.get('image') as string);
      return art;
    }
  }
  return out;
}

function str(map: YAMLMap, key: string): string | undefined {
  const v = map.get(key, true);
  return isScalar(v) && v.value !== null && v.value !== undefined ? String(v.value) : undefined;
}

