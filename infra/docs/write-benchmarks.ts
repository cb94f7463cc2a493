// infra/docs/write-benchmarks.ts — `npm run docs:benchmarks`: rewrite docs/benchmarks.md from the
// results in docs/bench/*.json. Every full bench run does the same after writing its result
// (refreshBenchmarksPage); test/unit/benchmarks-doc.test.ts fails when the committed page differs
// from what this writes.
import { writeBenchmarksPage } from './benchmarks-document.js';

writeBenchmarksPage();
console.log('wrote docs/benchmarks.md');
