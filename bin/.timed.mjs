const t0 = performance.now();
const { main } = await import('../dist/bundle/pinwatch.js');
const t1 = performance.now();
process.exitCode = await main(process.argv.slice(2));
const t2 = performance.now();
process.on('exit', () => process.stderr.write(`boot ${t0.toFixed(0)} entry-import ${(t1-t0).toFixed(0)} main ${(t2-t1).toFixed(0)} exit ${performance.now().toFixed(0)}\n`));
