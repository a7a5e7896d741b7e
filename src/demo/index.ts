export { buildDemoRepo } from './build.js';
export { demoStory, DEMO_IMAGES } from './story.js';
export { demoDigest } from './digest.js';
