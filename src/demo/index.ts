export { buildDemoRepo } from './build.js';
export { demoStory, DEMO_IMAGES, DEMO_FAILING_LANE_LOG, DEMO_LOG_FILE } from './story.js';
export { demoDigest } from './digest.js';
