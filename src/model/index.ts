export * from './pin.js';
export * from './finding.js';
