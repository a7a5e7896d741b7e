/** Producers and build recipes of a repository (barrel): the build model read from its Makefiles and workflows, who stamps a pin, recipe lookup. */
export { loadBuildModel, readMakeSide, readRecipeFiles } from './repo.js';
export type { BuildModelOptions } from './repo.js';
export { combineModel, followInput } from './combine.js';
export type { FollowInput, MakeSide, RecipeFiles } from './combine.js';
export { recipeAt, recipeLabel, recipesFor } from './recipes.js';
export type { BuildModel, BuildRecipe, KoBuild, PinWrite, Producer, RecipeInput, RecipeKind } from './types.js';
export { distinctProducers, normalizeKeyPath, producersFor, stampIndex, writeCoversPin } from './stamps.js';
export type { PinPlace, PinStamp } from './stamps.js';
export { describeProducers } from './describe.js';
export type { ProducerDescription } from './describe.js';
