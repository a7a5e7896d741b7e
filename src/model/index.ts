export * from './pin.js';
export * from './finding.js';
export * from './rule-ids.js';
