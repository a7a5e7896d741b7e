export { buildDemoRepo } from './build.js';
export { demoStory, DEMO_IMAGES, DASHBOARD_BUILD_MESSAGE, DASHBOARD_TAG, DEMO_FAILING_LANE_LOG, DEMO_LOG_FILE } from './story.js';
export { demoDigest } from './digest.js';
export { demoPods, writeDemoPods, DEMO_PODS_FILE } from './pods.js';
