/** The ko builder (barrel): ko command lines, `.ko.yaml`, ko's repository naming, and ko builds as BuildRecipes. */
export { readKoArgs, type KoRequest } from './command.js';
export { baseImageFor, findKoConfig, KO_DEFAULT_BASE_IMAGE, parseKoConfig, readKoConfig, type KoConfig } from './config.js';
export { dirOfImport, importPathOf, moduleAt, type GoModule } from './gomod.js';
export { koRepository, namingOf, type KoNaming } from './naming.js';
export { koRecipes, type KoOrigin } from './recipe.js';
