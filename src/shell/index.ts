/** The one POSIX-shell splitter (a leaf): words with quoting kept, simple commands, substitutions. */
export { commandSubstitutions, parseShell, resolveWord, substituteVars, wordText } from './shell.js';
export type { Redirect, SimpleCommand, Word, WordPart } from './shell.js';
