/** The lint rules pinwatch runs, in report order (RULE_CHECKS). */
import { buildRecipeAssumption, buildRecipeProblem, invalidRef, unparsedFile } from './file-rules.js';
import { firstPartyMissingDigest, floatingTag, thirdPartyMissingDigest } from './pin-form-rules.js';
import { lockstepMismatch, multipleProducers, noProducer, producerNotBuilt } from './producer-rules.js';
import { repositoryMultipleDigests } from './repository-multiple-digests.js';
import { writeWithoutPin } from './write-without-pin.js';
import type { RuleCheck } from './types.js';

/** Every rule that reads pins and the build model. Suppression rules live in src/lint. */
export const RULE_CHECKS: readonly RuleCheck[] = [
  firstPartyMissingDigest,
  floatingTag,
  repositoryMultipleDigests,
  noProducer,
  multipleProducers,
  lockstepMismatch,
  producerNotBuilt,
  writeWithoutPin,
  unparsedFile,
  invalidRef,
  buildRecipeProblem,
  buildRecipeAssumption,
  thirdPartyMissingDigest,
];
