export { scrapeText } from './scrape.js';
