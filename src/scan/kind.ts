/** Which collector reads a file, from its name (declared extraFiles are always text). */
import type { FileKind } from '../collect/index.js';

/** `Dockerfile`, `Dockerfile.dev`, `Dockerfile-windows` (dapr), `app.Dockerfile`, `Containerfile`. */
function isDockerfileName(base: string): boolean {
  return base === 'Dockerfile' || base.startsWith('Dockerfile.') || base.startsWith('Dockerfile-') || base.endsWith('.Dockerfile') || base.endsWith('.dockerfile') || base === 'Containerfile';
}

export function fileKind(path: string, declaredExtra: boolean): FileKind {
  if (declaredExtra) return 'text';
  const base = path.slice(path.lastIndexOf('/') + 1);
  if (base.endsWith('.tag')) return 'tag';
  if (isDockerfileName(base)) return 'dockerfile';
  if (base.endsWith('.yaml') || base.endsWith('.yml')) return 'yaml';
  return 'text';
}

export function isYamlName(name: string): boolean {
  return name.endsWith('.yaml') || name.endsWith('.yml');
}
