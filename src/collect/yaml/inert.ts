/**
 * Where the YAML walk (walk.ts and the recognisers it runs) may read something
 * in a text: every place a key it looks at (`…image`, `registry`, `repository`,
 * `tag`, `digest`), a `--x-image=` argument, a `ko://` or `oci://` ref, a
 * digest's `@`, a tag's `:` (one not followed by a space, the line end or `//`:
 * a ref has no space and the walk skips strings with `://`) or a double-quoted
 * escape (which can spell any of these) could be. A block subtree whose text
 * holds none of them yields no pin, problem or left-out value (its repeated keys
 * are the skim's to find: fast-parse.ts), so the fast parser may leave it out
 * (fastParseAll's `inert`): on a 1 MB CRD bundle that is almost all of it.
 */
import type { Inert } from './fast-parse.js';

const MAY_READ = /image(?:["']?:|=)|\b(?:registry|repository|tag|digest|hub)["']?:|ko:\/\/|oci:\/\/|@|:(?!\/\/|[ \n]|$)|"[^"\n]*\\/gi;
/** In a Helm values file, also a `name` key: an image map holding only a name is counted (split.ts NAME_ONLY_IMAGE_LEFT_OUT). */
const MAY_READ_VALUES = new RegExp(`${MAY_READ.source}|\\bname["']?:`, 'gi');

/** The offsets in `text` where the walk may read something, as fastParseAll's `inert`; `values`: a Helm values file. */
export function inertRegions(text: string, values = false): Inert {
  const marks: number[] = [];
  const mayRead = values ? MAY_READ_VALUES : MAY_READ;
  mayRead.lastIndex = 0;
  for (let m = mayRead.exec(text); m !== null; m = mayRead.exec(text)) marks.push(m.index);
  return {
    next(from: number): number {
      let lo = 0;
      let hi = marks.length;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (marks[mid]! < from) lo = mid + 1;
        else hi = mid;
      }
      return lo < marks.length ? marks[lo]! : Infinity;
    },
  };
}
