/**
 * npm's `prepare` step: build dist/. npm runs it for `npm pack` and `npm publish`,
 * for a plain `npm install`/`npm ci` in a clone, and when pinwatch is installed
 * from git (`npm install -g github:OWNER/pinwatch`). A global install from git
 * runs it without the devDependencies (npm/cli#8440: the git clone's own install
 * inherits --global), so TypeScript is missing: then it is installed here first,
 * into the clone only, before the build.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

function run(args, env = process.env) {
  const r = spawnSync('npm', args, { stdio: 'inherit', env });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

if (!existsSync('node_modules/typescript/bin/tsc')) {
  // none of the outer install's settings but where packages come from: this install is the clone's own
  const keep = /^npm_config_(cache|registry|userconfig|offline|prefer_offline|prefer_online|proxy|https_proxy|noproxy|cafile|strict_ssl|@.*:registry)$/i;
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_config_/i.test(k) || keep.test(k)));
  run(['install', '--no-save', '--include=dev', '--ignore-scripts', '--no-audit', '--no-fund', '--location=project'], env);
}
run(['run', 'build', '--silent']);
