/** The registry flags every command that may talk to a registry shares (parsed by registryOptionsFromFlags). */
import type { Command } from 'commander';

export function addRegistryFlags(cmd: Command): Command {
  return cmd
    .option('--insecure-registry <host>', 'allow plain HTTP to this registry host (repeatable; loopback is always allowed)', (v: string, prev: string[] = []) => [...prev, v])
    .option('--timeout <ms>', 'per-request registry timeout in milliseconds', '30000')
    .option('--no-cache', 'do not read or write the on-disk digest cache');
}
